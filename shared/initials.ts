/**
 * "C. Carter" -> "CC", "Åsa-Britt Öberg" -> "ÅBÖ": the initials of a name as the sealed PDF
 * stamps them in INITIALS boxes, as the API gives them as those boxes' values, and as the
 * signing page shows them. One function for all three, so that they never differ.
 */
export function initialsOf(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((part) => [...part][0]?.toUpperCase() ?? '')
    .join('');
}
