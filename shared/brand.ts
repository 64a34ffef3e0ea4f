/** The accent of SignDesk's own look (signing page, verify page, mails, audit page) until the office sets its own. */
export const DEFAULT_ACCENT = '#1f4fd1';
/** WCAG 2.x level AA for normal text: the contrast white text on the accent must reach (buttons), and the accent as text on white (links). */
export const MIN_ACCENT_CONTRAST = 4.5;
export const ACCENT_PATTERN = /^#[0-9a-f]{6}$/;

type Rgb = { r: number; g: number; b: number };

/** `#1f4fd1` (or `#1F4FD1`) as its three channels, 0–255; undefined for anything else. */
export function parseAccent(text: string): Rgb | undefined {
  const hex = text.trim().toLowerCase();
  if (!ACCENT_PATTERN.test(hex)) return undefined;
  return {
    r: Number.parseInt(hex.slice(1, 3), 16),
    g: Number.parseInt(hex.slice(3, 5), 16),
    b: Number.parseInt(hex.slice(5, 7), 16),
  };
}

/** WCAG 2.x relative luminance. */
function luminance({ r, g, b }: Rgb): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two colours, 1 to 21 (WCAG 2.x). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const WHITE: Rgb = { r: 255, g: 255, b: 255 };

/** The accent's contrast with white, rounded down to two decimals (what a refusal quotes: never rounded up to a pass). */
export function accentContrast(accent: string): number | undefined {
  const rgb = parseAccent(accent);
  return rgb ? Math.floor(contrastRatio(rgb, WHITE) * 100) / 100 : undefined;
}

/**
 * Why the accent cannot be the office's, or undefined when it can: white button text on it and
 * links in it on white must both pass WCAG AA (4.5:1), which for white is the same one ratio.
 */
export function accentProblem(accent: string): string | undefined {
  const ratio = accentContrast(accent);
  if (ratio === undefined) return 'must be a colour of the form #rrggbb, such as #1f4fd1';
  if (ratio < MIN_ACCENT_CONTRAST)
    return `white text on it has a contrast of ${ratio.toFixed(2)}:1; WCAG AA needs at least ${MIN_ACCENT_CONTRAST}:1: choose a darker colour`;
  return undefined;
}

/** The accent at 10 % over white (soft backgrounds of the pages), as CSS. */
export function softAccent(accent: string): string {
  const rgb = parseAccent(accent) ?? parseAccent(DEFAULT_ACCENT)!;
  return `rgba(${rgb.r}, ${rgb.g}, ${rgb.b}, 0.1)`;
}
