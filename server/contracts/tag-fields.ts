import type { AnnotationType } from '../../shared/api/enums';
import type { TagProblem, TextTag } from '../pdf/find-text-tags';
import type { PageSize } from '../pdf/pdf-read-error';
import { AppError } from '../core/errors';
import type { Box } from './contract-fields';

/** The tag's own box, as stored with the field (`tag_box`): painted white on the signing page's images and in the signed PDF. */
export type TagBox = { page: number; x: number; y: number; width: number; height: number };

export const tagBoxOf = (tag: TextTag): TagBox => ({
  page: tag.page,
  x: tag.x,
  y: tag.y,
  width: tag.width,
  height: tag.height,
});

/**
 * The same tag: on one page and line, overlapping along it (two tags of a line never overlap).
 * Lenient, so that a box measured by an earlier way of reading tags still counts as made.
 */
export const sameTagBox = (a: TagBox, b: TagBox) =>
  a.page === b.page &&
  Math.abs(a.y + a.height - (b.y + b.height)) < Math.min(a.height, b.height) / 2 &&
  a.x < b.x + b.width &&
  b.x < a.x + a.width;

export function parseTagBox(json: string | null): TagBox | undefined {
  if (!json) return undefined;
  return JSON.parse(json) as TagBox;
}

/** The tag boxes of a contract's fields: what the page images, the party's download and the sealed PDF paint over. */
export const tagCoversOf = (annotations: ReadonlyArray<{ tagBox: string | null }>): TagBox[] =>
  annotations.flatMap((annotation) => parseTagBox(annotation.tagBox) ?? []);

/** How high a signature and initials grow into the blank space above their tag, at most; a point of it stays blank. */
const GROWS_TO: Partial<Record<AnnotationType, number>> = { SIGNATURE: 36, INITIALS: 24 };
/** How wide a field for text grows into the blank space after its tag, at most (types the API may add included). */
const GROWS_RIGHT_TO: Record<string, number> = { NAME: 120, TEXT: 120, DATE: 80, EMAIL: 160, NUMBER: 80 };
const CLEARANCE = 1;
/** Wrong tags named in a problem at most: each in its validation lines, the first few in its detail. */
const MAX_LINES = 50;
const MAX_PLACES = 5;

/**
 * Where a tag's field goes (docs/tags.md): its left edge on the tag's left ink edge, its bottom
 * on the tag's bottom (the font's descent below the baseline), as wide and as high as the tag
 * itself, so it covers the tag and nothing beside or below it. A signature (initials) grows
 * upwards into the blank space above its tag, to 36 (24) points at most, stopping a point short
 * of any text above; a name or text (date) field grows to the right into the blank space after
 * its tag, to 120 (80) points wide, stopping two points short of the next text on the line. `w=` sets the width (to the right), `h=` the height (upwards from the
 * tag's bottom, whatever is above). A checkbox is a square as high as the tag at its start
 * (or `w` × `h`). The box is kept on the page.
 */
export function fieldBoxOfTag(tag: TextTag, pageSize: PageSize): Box {
  const isSquare = tag.type === 'CHECKBOX';
  const grown = Math.min(GROWS_TO[tag.type] ?? 0, tag.height + Math.max(0, tag.roomAbove - CLEARANCE));
  let height = tag.options.height ?? Math.max(tag.height, grown);
  const wider = Math.min(GROWS_RIGHT_TO[tag.type] ?? 0, tag.width + Math.max(0, tag.roomRight - 2 * CLEARANCE));
  let width = tag.options.width ?? (isSquare ? (tag.options.height ?? tag.height) : Math.max(tag.width, wider));
  const [pageWidth, pageHeight] = pageSize;
  width = Math.min(width, pageWidth);
  height = Math.min(height, pageHeight);
  const x = clamp(tag.x, 0, pageWidth - width);
  const y = clamp(tag.y + tag.height - height, 0, pageHeight - height);
  return { pdfPage: tag.page, posX: round(x), posY: round(y), width: round(width), height: round(height) };
}

/**
 * What a tag's options say about its field besides its box: `required=false`, its `label` and
 * `hint` (read and checked in parse-tag.ts), and for DROPDOWN and RADIO its choices
 * (`options=A|B|C`, stored as the field's JSON `options`).
 */
export function fieldDetailsOfTag(tag: TextTag): {
  inputRequired: boolean;
  label: string;
  hint: string;
  options: string | null;
} {
  return {
    inputRequired: tag.options.required ?? true,
    label: tag.options.label ?? '',
    hint: tag.options.hint ?? '',
    options: tag.options.choices ? JSON.stringify(tag.options.choices) : null,
  };
}

/**
 * All or nothing: every tag that is not a good one (`problems`, as read from the PDF) and every
 * tag naming a party (or role) that does not exist is one validation line naming the tag, its
 * page and its line, and nothing is made.
 */
export function checkTags(
  tags: readonly TextTag[],
  problems: readonly TagProblem[],
  known: number,
  what: 'party' | 'role',
): void {
  const unknown = tags.filter((tag) => tag.position < 1 || tag.position > known);
  const all: TagProblem[] = [
    ...problems,
    ...unknown.map((tag) => ({
      ...tag,
      problem:
        what === 'party'
          ? `there is no party ${tag.position}: the contract has ${known} ${known === 1 ? 'party' : 'parties'} (1 = the first added)`
          : `role ${tag.position} is past the last possible role (${known})`,
    })),
  ].sort((a, b) => a.page - b.page || a.line - b.line);
  if (all.length === 0) return;
  const lines = all
    .slice(0, MAX_LINES)
    .map((tag) => `${tag.text} on page ${tag.page}, line ${tag.line}: ${tag.problem}`);
  if (all.length > MAX_LINES) lines.push(`… and ${all.length - MAX_LINES} more`);
  const places =
    all
      .slice(0, MAX_PLACES)
      .map((tag) => `${tag.text} (page ${tag.page}, line ${tag.line})`)
      .join(', ') + (all.length > MAX_PLACES ? ` and ${all.length - MAX_PLACES} more` : '');
  throw new AppError(
    'validation-failed',
    `${all.length === 1 ? 'A tag is' : `${all.length} tags are`} not right, so no fields were made: ${places}.${unknown.length > 0 && what === 'party' ? ' Add the parties first.' : ''}`,
    { validationErrors: lines },
  );
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));
// Three decimals keep the box inside the page after rounding (boxes are checked to 1e-6 points).
const round = (value: number) => Math.floor(value * 1000) / 1000;
