import type { AnnotationType } from '../../../shared/api/enums';

/** A field as the editor holds it: PDF points from the top-left of its page as displayed, y down; page 1-based. */
export type EditorField = {
  /** Stable in this page (React key, focus, undo), whatever the server calls the field. */
  id: string;
  /** The field's API path; undefined while the server is making it. */
  self: string | undefined;
  /** Whose field it is: a party path (contracts) or a role number (templates). */
  owner: string;
  type: AnnotationType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  isRequired: boolean;
  /** What the field asks and a line of help, shown to the party ('' for none). */
  label: string;
  hint: string;
  /** The choices of a DROPDOWN or RADIO field; null for other types. */
  options: string[] | null;
};

export type FieldBox = Pick<EditorField, 'x' | 'y' | 'width' | 'height'>;
export type PageSize = { width: number; height: number };

/** What a click makes: a box of the usual size for its kind. */
export const DEFAULT_SIZE: Record<AnnotationType, { width: number; height: number }> = {
  SIGNATURE: { width: 160, height: 44 },
  INITIALS: { width: 60, height: 30 },
  NAME: { width: 150, height: 20 },
  DATE: { width: 90, height: 20 },
  TEXT: { width: 150, height: 20 },
  CHECKBOX: { width: 16, height: 16 },
  NUMBER: { width: 90, height: 20 },
  EMAIL: { width: 170, height: 20 },
  DROPDOWN: { width: 130, height: 20 },
  RADIO: { width: 130, height: 48 },
  ATTACHMENT: { width: 170, height: 20 },
};

/** Smaller than this a field cannot be filled in or seen. */
export const MIN_SIDE = 8;

const round = (value: number) => Math.round(value * 100) / 100;

/** A box kept on its page: no smaller than MIN_SIDE, no larger than the page, wholly on it. */
export function clampBox(box: FieldBox, page: PageSize): FieldBox {
  const width = Math.min(Math.max(box.width, MIN_SIDE), page.width);
  const height = Math.min(Math.max(box.height, MIN_SIDE), page.height);
  const x = Math.min(Math.max(box.x, 0), page.width - width);
  const y = Math.min(Math.max(box.y, 0), page.height - height);
  return { x: round(x), y: round(y), width: round(width), height: round(height) };
}

/** The box a click at (x, y) makes: the type's usual size, centred there. */
export function boxAt(type: AnnotationType, x: number, y: number, page: PageSize): FieldBox {
  const size = DEFAULT_SIZE[type];
  return clampBox({ x: x - size.width / 2, y: y - size.height / 2, ...size }, page);
}

/** The box a drag from one corner to the other makes; a short drag is a click. */
export function boxBetween(
  type: AnnotationType,
  from: { x: number; y: number },
  to: { x: number; y: number },
  page: PageSize,
): FieldBox {
  const width = Math.abs(to.x - from.x);
  const height = Math.abs(to.y - from.y);
  if (width < MIN_SIDE && height < MIN_SIDE) return boxAt(type, from.x, from.y, page);
  return clampBox({ x: Math.min(from.x, to.x), y: Math.min(from.y, to.y), width, height }, page);
}

/** A key press on a focused field: arrows move it, with Shift they resize it; Ctrl/Cmd takes bigger steps. */
export function boxAfterKey(
  box: FieldBox,
  key: string,
  options: { isResize: boolean; isBig: boolean },
  page: PageSize,
): FieldBox | undefined {
  const step = options.isBig ? 10 : 1;
  const delta: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  const move = delta[key];
  if (!move) return undefined;
  const [dx, dy] = move;
  if (options.isResize) return clampBox({ ...box, width: box.width + dx, height: box.height + dy }, page);
  return clampBox({ ...box, x: box.x + dx, y: box.y + dy }, page);
}

export const isSameBox = (a: FieldBox, b: FieldBox) =>
  a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
