import type { AnnotationType } from '../../shared/api/enums';
import type { TextTag } from '../pdf/find-text-tags';
import type { PageSize } from '../pdf/pdf-read-error';
import { AppError } from '../core/errors';
import type { Box } from './contract-fields';

/**
 * The smallest box each field type is made at from a tag: a tag is a line of text, a signature
 * needs room above it. Widths stay the tag's own (at least this), so a field never runs over
 * the text after its tag on the line; write a wider tag (or resize the field) for more room.
 */
const MIN_SIZE: Record<AnnotationType, { width: number; height: number }> = {
  SIGNATURE: { width: 80, height: 36 },
  INITIALS: { width: 40, height: 24 },
  NAME: { width: 120, height: 16 },
  DATE: { width: 80, height: 16 },
  TEXT: { width: 120, height: 16 },
  CHECKBOX: { width: 14, height: 14 },
  NUMBER: { width: 80, height: 16 },
  EMAIL: { width: 120, height: 16 },
  DROPDOWN: { width: 100, height: 16 },
  RADIO: { width: 100, height: 16 },
  ATTACHMENT: { width: 120, height: 16 },
};

/** The tag's own box, as stored with the field (`tag_box`): painted white in the signed PDF. */
export type TagBox = { page: number; x: number; y: number; width: number; height: number };

export const tagBoxOf = (tag: TextTag): TagBox => ({
  page: tag.page,
  x: tag.x,
  y: tag.y,
  width: tag.width,
  height: tag.height,
});

export const sameTagBox = (a: TagBox, b: TagBox) =>
  a.page === b.page && Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.width - b.width) < 0.5;

export function parseTagBox(json: string | null): TagBox | undefined {
  if (!json) return undefined;
  return JSON.parse(json) as TagBox;
}

/**
 * Where a tag's field goes: over the tag, from its left edge. Signatures and initials grow
 * upwards from the tag's bottom (a signature sits on its line, and the space above a signature
 * line is usually blank); the other fields grow about the tag's middle; a checkbox is a square
 * at the tag's start. The box is kept on the page.
 */
export function fieldBoxOfTag(tag: TextTag, pageSize: PageSize): Box {
  const min = MIN_SIZE[tag.type];
  const isSquare = tag.type === 'CHECKBOX';
  let height = Math.max(tag.height, min.height);
  let width = isSquare ? height : Math.max(tag.width, min.width);
  const grows = tag.type === 'SIGNATURE' || tag.type === 'INITIALS';
  let y = grows ? tag.y + tag.height - height : tag.y + (tag.height - height) / 2;
  let x = tag.x;
  const [pageWidth, pageHeight] = pageSize;
  width = Math.min(width, pageWidth);
  height = Math.min(height, pageHeight);
  x = clamp(x, 0, pageWidth - width);
  y = clamp(y, 0, pageHeight - height);
  return { pdfPage: tag.page, posX: round(x), posY: round(y), width: round(width), height: round(height) };
}

/**
 * The tags whose position names no one (no party, or no role past the limit): one validation
 * line each, and nothing is made.
 */
export function checkTagPositions(tags: readonly TextTag[], known: number, what: 'party' | 'role'): void {
  const unknown = tags.filter((tag) => tag.position < 1 || tag.position > known);
  if (unknown.length === 0) return;
  const lines = unknown.map(
    (tag) =>
      `${tag.text} on page ${tag.page}: ${what === 'party' ? `there is no party ${tag.position}` : `role ${tag.position} is past the last possible role`} (${known} ${what === 'party' ? (known === 1 ? 'party' : 'parties') : 'roles'})`,
  );
  const names = [...new Set(unknown.map((tag) => tag.text))].join(', ');
  throw new AppError(
    'validation-failed',
    `These tags name a ${what} that does not exist: ${names}. Nothing was made; add the ${what === 'party' ? 'parties' : 'roles'} first (1 = the first added).`,
    {
      validationErrors: lines,
    },
  );
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));
// Three decimals keep the box inside the page after rounding (boxes are checked to 1e-6 points).
const round = (value: number) => Math.floor(value * 1000) / 1000;
