import { TIMESTAMP_PATTERN } from '../../shared/api/common';

/** A string that reads as a date with a time of day: ISO 8601 (T, Z, offsets, fractions) or with a space. */
const LOOKS_LIKE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * Every string in `value` (walked through arrays and objects) that is a timestamp in another form
 * than the interface's `YYYY-MM-DD HH:MM:SS`, each as `path: value`; empty when all are in form.
 */
export function foreignTimestamps(value: unknown, at = '$'): string[] {
  if (typeof value === 'string') {
    return LOOKS_LIKE_TIMESTAMP.test(value) && !TIMESTAMP_PATTERN.test(value) ? [`${at}: ${value}`] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => foreignTimestamps(item, `${at}[${index}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => foreignTimestamps(item, `${at}.${key}`));
  }
  return [];
}

/** The values of every `example` and `examples` anywhere in an OpenAPI document, with where each is. */
export function examplesIn(value: unknown, at = '$'): Array<{ at: string; example: unknown }> {
  if (Array.isArray(value)) return value.flatMap((item, index) => examplesIn(item, `${at}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === 'example' || key === 'examples'
      ? [{ at: `${at}.${key}`, example: item }]
      : examplesIn(item, `${at}.${key}`),
  );
}
