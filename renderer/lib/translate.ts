/** The values a text's `{name}` placeholders take. */
export type TextValues = Record<string, string | number>;

/**
 * The renderer's one i18n style: flat dictionaries of keys to plain texts with `{name}`
 * placeholders, one per language, the Swedish typed by the English keys. This fills a text in;
 * a placeholder without a value stays as written, so a missing value shows rather than hides.
 */
export function fillText(text: string, values?: TextValues): string {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
