import type { Request } from 'express';
import { create as createDisposition, parse as parseDisposition } from 'content-disposition';
import { validationFailed } from '../core/errors';

const MAX_FILENAME_LENGTH = 255;
const TOKEN = "[a-z0-9!#$&^_.+'-]+";
const MEDIA_TYPE = new RegExp(`^(${TOKEN}/${TOKEN})\\s*(?:;.*)?$`, 'i');
const CHARSET = /;\s*charset\s*=\s*"?([a-z0-9._:-]{1,40})"?/i;

/**
 * The filename of an upload's `Content-Disposition` (RFC 6266; `filename*` wins over
 * `filename`), whole (a "/" in it is part of the name: it is never a path here) but without
 * control characters. Downloads make it safe to save (downloadName).
 */
export function readUploadFilename(req: Request): string {
  const header = req.headers['content-disposition'];
  if (!header) {
    throw validationFailed(['Content-Disposition: is required, e.g. attachment; filename="terms.pdf" (RFC 6266)']);
  }
  // The parser is forgiving; a disposition type that is not a token means the header is garbled.
  const disposition = parseDisposition(header);
  if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/i.test(disposition.type)) {
    throw validationFailed(['Content-Disposition: is not a valid disposition (RFC 6266)']);
  }
  const filename = disposition.parameters.filename;
  // Control characters are exactly what is removed.
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u001f\u007f]/g;
  const name = (filename ?? '').normalize('NFC').replace(controls, '').trim();
  if (name === '' || name === '.' || name === '..') {
    throw validationFailed(['Content-Disposition: must carry a filename (filename= or filename*=)']);
  }
  if (name.length > MAX_FILENAME_LENGTH) {
    throw validationFailed([`Content-Disposition: the filename must be at most ${MAX_FILENAME_LENGTH} characters`]);
  }
  return name;
}

/** `type/subtype` of the request, lower-cased, with its charset when it has one. */
export function readMediaType(req: Request): string {
  const header = req.headers['content-type'] ?? '';
  const match = MEDIA_TYPE.exec(header.trim());
  if (!match?.[1]) throw validationFailed(['Content-Type: must be a media type such as application/pdf']);
  const charset = CHARSET.exec(header)?.[1];
  return `${match[1].toLowerCase()}${charset ? `; charset=${charset.toLowerCase()}` : ''}`;
}

/** A stored name as a file can be saved under: folder separators become "_", nothing is cut. */
export const downloadName = (name: string) => name.replace(/[/\\]/g, '_');

/** Types a browser shows without running anything of the file's own. */
const INLINE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'text/plain']);

/**
 * Headers that serve a stored file safely: its own type, shown inline only when harmless,
 * a download otherwise, and a sandbox so that no served file can run script on our origin.
 */
export function fileResponseHeaders(contentType: string, filename: string): Record<string, string> {
  const type = contentType.split(';')[0]?.trim() ?? '';
  return {
    'Content-Type': contentType,
    'Content-Disposition': createDisposition(downloadName(filename), {
      type: INLINE_TYPES.has(type) ? 'inline' : 'attachment',
    }),
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
  };
}
