/**
 * Validation problems in an office's words: the API's `field: message` lines with the field
 * names (and enum codes) replaced by the form's labels, and each field said once. A form that
 * shows a field's message beside its control keeps it out of the banner.
 */
export type FormLabels = {
  /** API field name -> the label the form shows (`office_name` -> "Office name"). */
  fields: Record<string, string>;
  /** Enum codes that may appear in messages -> their labels (`EMAIL` -> "E-mail"). */
  values?: Record<string, string>;
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A message with the field names and codes it mentions replaced by labels. */
export function readableMessage(message: string, labels: FormLabels | undefined): string {
  if (!labels) return message;
  const words = { ...labels.values, ...labels.fields };
  const names = Object.keys(words).sort((a, b) => b.length - a.length);
  if (names.length === 0) return message;
  const pattern = new RegExp(`(?<![\\w.])(${names.map(escape).join('|')})(?![\\w])`, 'g');
  return message.replace(pattern, (name) => words[name] ?? name);
}

export type ProblemLine = { field: string | undefined; text: string };

/**
 * The banner's lines: one per field, in the order given; the fields the form shows beside their
 * controls (`labels.fields`) left out, the others labelled when known.
 */
export function bannerLines(lines: readonly string[], labels: FormLabels | undefined): ProblemLine[] {
  const seen = new Set<string>();
  const result: ProblemLine[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const field = colon > 0 ? line.slice(0, colon).trim() : undefined;
    const key = field ?? line;
    if (seen.has(key)) continue;
    seen.add(key);
    if (field !== undefined && labels && field in labels.fields) continue;
    if (!labels || field === undefined) {
      result.push({ field, text: line });
      continue;
    }
    result.push({
      field,
      text: `${readableMessage(field, labels)}: ${readableMessage(line.slice(colon + 1).trim(), labels)}`,
    });
  }
  return result;
}

/** The messages shown beside each control, in the form's words. */
export function readableErrors(errors: Record<string, string>, labels: FormLabels): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, message]) => [field, readableMessage(message, labels)]),
  );
}
