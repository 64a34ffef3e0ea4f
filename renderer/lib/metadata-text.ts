/**
 * A contract's metadata as the admin UI edits it: one `key=value` a line. Saving sends what
 * changed the API's way: new and changed keys with their values, removed keys with "".
 */
export function metadataToText(metadata: Readonly<Record<string, string>>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

/** The changes to send, or the first line that is not `key=value` (1-based). */
export function metadataChanges(
  text: string,
  saved: Readonly<Record<string, string>>,
): { changes: Record<string, string> } | { badLine: number } {
  const typed: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    if (at <= 0) return { badLine: index + 1 };
    typed[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  const changes: Record<string, string> = {};
  for (const [key, value] of Object.entries(typed)) if (saved[key] !== value) changes[key] = value;
  for (const key of Object.keys(saved)) if (!(key in typed)) changes[key] = '';
  return { changes };
}
