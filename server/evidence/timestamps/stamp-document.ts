import type { AppContext } from '../../context/app-context';
import type { DssData } from '../../pdf/dss-objects';
import { requestTimestamp, type ObtainedTimestamp } from './request-timestamp';

/** Room for the document timestamp's token (a token with its certificates is a few KiB). */
const DOCUMENT_TIMESTAMP_ROOM = 16 * 1024;
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * The PDF with a document timestamp appended: its place prepared in the sandbox (the PDF is
 * parsed there), the token asked for the digest of its byte range and written in. A token
 * larger than the room kept is asked for again with room to spare.
 */
export async function stampDocument(
  ctx: AppContext,
  tsaUrl: string,
  pdf: Uint8Array,
  options: { signal?: AbortSignal | undefined; dss?: DssData | undefined; room?: number },
): Promise<{ bytes: Buffer; token: ObtainedTimestamp }> {
  const { signal, dss } = options;
  const room = options.room ?? DOCUMENT_TIMESTAMP_ROOM;
  const prepared = await ctx.pdf.run('prepare-document-timestamp', {
    bytes: pdf,
    fieldName: documentTimestampFieldName(new Date(ctx.now())),
    room,
    dss,
  });
  const bytes = Buffer.from(prepared.bytes.buffer, prepared.bytes.byteOffset, prepared.bytes.byteLength);
  const token = await requestTimestamp(ctx, tsaUrl, [bytes.subarray(0, prepared.start), bytes.subarray(prepared.end)], {
    timeoutMs: REQUEST_TIMEOUT_MS,
    signal,
  });
  if (token.der.length > room) {
    if (room > DOCUMENT_TIMESTAMP_ROOM)
      throw new Error(`the authority's token (${token.der.length} bytes) does not fit the room kept`);
    return stampDocument(ctx, tsaUrl, pdf, { ...options, room: token.der.length + 4096 });
  }
  bytes.write(token.der.toString('hex').toUpperCase(), prepared.start + 1, 'latin1');
  return { bytes, token };
}

/** A field name without a period (ISO 32000-1 12.7.3.2). */
export function documentTimestampFieldName(time: Date): string {
  return `SignDesk timestamp ${time.toISOString().replace(/\.\d+Z$/, 'Z')}`;
}
