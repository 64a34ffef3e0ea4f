/** Prose is wrapped to this many columns: the README is read in a terminal. */
const COLUMNS = 96;

/** A paragraph as lines of at most COLUMNS characters, each with the indent. */
export function wrapParagraph(text: string, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > COLUMNS) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}
