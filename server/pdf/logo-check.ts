/**
 * An office's logo judged before anything decodes it (on the request thread first, again in the
 * PDF sandbox): a PNG by its header (IHDR), an SVG as text. An SVG is never served or embedded
 * as it came: it is drawn into a PNG (prepare-logo.ts), and one that carries script, event
 * handlers, foreign content, entities or references to anything outside itself is refused with
 * what was found, so the office learns why rather than getting a logo that differs from its file.
 */
export const MAX_LOGO_EDGE = 4_096;
export const MAX_LOGO_PIXELS = 4_000_000;

/** A file that cannot be the logo; its message goes to the admin as the problem's detail. */
export class LogoImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogoImageError';
  }
}

export type LogoKind = 'png' | 'svg';
export type LogoSize = { width: number; height: number };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What an SVG may not hold, each with the words the refusal uses. */
const HOSTILE: ReadonlyArray<[RegExp, string]> = [
  [/<!DOCTYPE|<!ENTITY/i, 'a DOCTYPE or entity declarations'],
  [/<\s*script\b/i, 'a script'],
  [/\son[a-z]+\s*=/i, 'an event handler attribute (on…=)'],
  [/<\s*foreignObject\b/i, 'foreign content (foreignObject)'],
  [/<\s*(iframe|embed|object|audio|video|canvas|handler|listener)\b/i, 'embedded content'],
  [
    /<\s*(set|animate\w*)\b[^>]*\b(attributeName\s*=\s*["']?(xlink:)?href|to\s*=\s*["']?\s*javascript)/i,
    'an animation that changes a link',
  ],
  [/javascript\s*:/i, 'a javascript: link'],
  [/\b(xlink:)?href\s*=\s*["']?\s*(?!#)[^\s"'>]/i, 'a reference to something outside the file'],
  [/url\(\s*["']?\s*(?!#)/i, 'a url() to something outside the file'],
  [/@import/i, 'a style sheet import'],
];

/** The PNG's size from its IHDR chunk, without decoding. */
function pngSize(data: Buffer): LogoSize {
  if (data.length < 24 || data.toString('latin1', 12, 16) !== 'IHDR')
    throw new LogoImageError('The PNG has no header.');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** A length attribute in CSS pixels (px or no unit); undefined for percentages, other units or none. */
function lengthOf(tag: string, name: string): number | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*["']\\s*([0-9.]+)\\s*(px)?\\s*["']`, 'i').exec(tag);
  const value = match ? Number(match[1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The SVG's drawing size from its root element: width and height, else its viewBox. */
function svgSize(text: string): LogoSize {
  const root = /<svg\b[^>]*>/i.exec(text)?.[0];
  if (!root) throw new LogoImageError('The SVG has no <svg> element.');
  const viewBox = /\sviewBox\s*=\s*["']\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+([0-9.]+)\s*["']/i.exec(root);
  const width = lengthOf(root, 'width') ?? (viewBox ? Number(viewBox[1]) : undefined);
  const height = lengthOf(root, 'height') ?? (viewBox ? Number(viewBox[2]) : undefined);
  if (!width || !height) throw new LogoImageError('The SVG gives no size: set width and height, or a viewBox.');
  return { width, height };
}

/** The SVG as text: UTF-8, an <svg> root, nothing hostile (LogoImageError says what was found). */
export function checkSvgText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LogoImageError('The SVG is not UTF-8 text.');
  }
  for (const [pattern, what] of HOSTILE) {
    if (pattern.test(text))
      throw new LogoImageError(`The SVG holds ${what}; a logo needs none. Export it as plain shapes, or as a PNG.`);
  }
  return text;
}

/** Text that opens as XML (a declaration, a comment, a DOCTYPE or the element) with an <svg> element early on. */
const isSvgStart = (head: string): boolean => /^\s*</.test(head) && /<svg\b/i.test(head);

/** The logo's kind from its first bytes, its size from its header, refused past the pixel budget. */
export function checkLogo(bytes: Uint8Array): { kind: LogoKind; size: LogoSize } {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let kind: LogoKind;
  let size: LogoSize;
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) {
    kind = 'png';
    size = pngSize(data);
  } else if (isSvgStart(data.toString('utf8', 0, Math.min(data.length, 4096)))) {
    kind = 'svg';
    size = svgSize(checkSvgText(bytes));
  } else {
    throw new LogoImageError('The logo must be a PNG or an SVG.');
  }
  if (size.width < 1 || size.height < 1 || size.width > MAX_LOGO_EDGE || size.height > MAX_LOGO_EDGE)
    throw new LogoImageError(
      `The logo is ${Math.round(size.width)}x${Math.round(size.height)} pixels; at most ${MAX_LOGO_EDGE} on a side.`,
    );
  if (kind === 'png' && size.width * size.height > MAX_LOGO_PIXELS)
    throw new LogoImageError(
      `The logo is ${size.width}x${size.height} pixels; at most ${MAX_LOGO_PIXELS / 1_000_000} megapixels.`,
    );
  return { kind, size };
}
