import { readPdfInfo } from '../read-pdf-info';
import { readTextTags } from '../read-text-tags';

/**
 * What the PDF sandbox can do: each task takes and returns plain data (structured-cloneable),
 * runs in a worker thread, and may be cut off by the sandbox's limits.
 */
export const pdfTasks = {
  /** An uploaded PDF parsed completely enough to sign it: its pages' displayed sizes. */
  inspect: (input: { bytes: Uint8Array; maxPages: number }) => readPdfInfo(input.bytes, input.maxPages),
  /** The text tags (`{{signature:1}}` …) in a PDF's text, with their boxes on the displayed pages. */
  'find-tags': (input: { bytes: Uint8Array; maxTags: number }) => readTextTags(input.bytes, input.maxTags),
};

export type PdfTasks = typeof pdfTasks;
export type PdfTaskName = keyof PdfTasks;
export type PdfTaskInput<T extends PdfTaskName> = Parameters<PdfTasks[T]>[0];
export type PdfTaskOutput<T extends PdfTaskName> = Awaited<ReturnType<PdfTasks[T]>>;
