import type { AnnotationType } from './api/enums';

/** The file a party attached to an ATTACHMENT field, as its stored value (JSON). */
export type FieldFileValue = { name: string; content_type: string; size: number; sha256: string };

/** A field's stored options (JSON array) as a list; null for a field without options. */
export function parseOptions(json: string | null): string[] | null {
  if (json === null) return null;
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.map(String) : null;
}

/** The stored value of an ATTACHMENT field, or undefined when it holds no file. */
export function parseFileValue(value: string | null): FieldFileValue | undefined {
  if (value === null || value === '') return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<FieldFileValue>;
    if (typeof parsed.name !== 'string' || typeof parsed.sha256 !== 'string') return undefined;
    return {
      name: parsed.name,
      content_type: String(parsed.content_type ?? ''),
      size: Number(parsed.size ?? 0),
      sha256: parsed.sha256,
    };
  } catch {
    return undefined;
  }
}

/** A decimal number as a person types it: an optional sign, digits, one decimal point or comma. */
const NUMBER_PATTERN = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;
/** Digits a NUMBER answer may have: every such number is stored exactly as typed. */
const MAX_NUMBER_DIGITS = 15;
/** An e-mail address as the party types it (the same shape the API takes for a party's email). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A typed answer checked against its field's type: the value to store, or what is wrong
 * with it (one line, without the field's name). Empty text is left to the caller (required or not).
 */
export function checkTypedAnswer(
  type: AnnotationType,
  options: readonly string[] | null,
  text: string,
): { value: string } | { problem: string } {
  if (type === 'NUMBER') {
    const compact = text.replace(/[\s\u00a0]/g, '');
    if (!NUMBER_PATTERN.test(compact)) return { problem: 'must be a number, such as 1250 or 12.5' };
    // More digits than a double keeps would be stored as another number.
    if (compact.replace(/\D/g, '').replace(/^0+/, '').length > MAX_NUMBER_DIGITS)
      return { problem: `must have at most ${MAX_NUMBER_DIGITS} digits` };
    const number = Number(compact.replace(',', '.'));
    if (!Number.isFinite(number)) return { problem: 'must be a number, such as 1250 or 12.5' };
    return { value: String(number) };
  }
  if (type === 'EMAIL') {
    if (text.length > 254 || !EMAIL_PATTERN.test(text)) return { problem: 'must be an e-mail address' };
    return { value: text };
  }
  if (type === 'DROPDOWN' || type === 'RADIO') {
    if (!options?.includes(text)) return { problem: `must be one of: ${(options ?? []).join(', ')}` };
    return { value: text };
  }
  return { value: text };
}

/** A short form of a hash for a stamp: its first 12 hex digits. */
export const shortHash = (sha256: string) => sha256.slice(0, 12);

export const formatFileSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
