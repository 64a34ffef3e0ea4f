import { ParseSpeeds } from 'pdf-lib';

/**
 * pdf-lib's load options for every read of ours: no metadata rewritten, and the whole file
 * parsed at once. pdf-lib's default waits on a timer (1 ms at least in Node) after every 100
 * objects, to let a browser page breathe; our reads run in the PDF sandbox's worker threads,
 * which have nobody to give way to: an upload of 300 objects kept its worker idle for 3 ms, and
 * the uploads waiting behind it.
 */
export const IN_ONE_GO = { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest } as const;
