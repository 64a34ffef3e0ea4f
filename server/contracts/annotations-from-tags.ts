import { MAX_ANNOTATIONS_PER_CONTRACT } from '../../shared/constants';
import type { AppContext } from '../context/app-context';
import type { AnnotationRow } from '../db/repos/annotations';
import { inTransaction } from '../db/open-database';
import { AppError } from '../core/errors';
import type { TagProblem, TextTag } from '../pdf/find-text-tags';
import { PdfReadError } from '../pdf/pdf-read-error';
import type { Actor } from '../core/actor';
import { parsePageSizes } from './contract-fields';
import { findDraft } from './find-draft';
import type { RequestOrigin } from '../activity/log-activity';
import { addAnnotation } from './save-annotation';
import {
  checkTags,
  fieldBoxOfTag,
  fieldDetailsOfTag,
  parseTagBox,
  sameTagBox,
  tagBoxOf,
  type TagBox,
} from './tag-fields';
import { mapInOrder } from '../core/in-order';

/** The text tags of a stored PDF (and those written wrong), read on the PDF sandbox; a PDF pdf.js cannot read is a 400. */
export async function readTags(
  ctx: AppContext,
  fileId: number,
  maxTags: number,
): Promise<{ tags: TextTag[]; problems: TagProblem[] }> {
  const file = await ctx.repos.files.readFile(fileId);
  if (!file) throw new Error(`stored file ${fileId} is missing`);
  try {
    const { tags, problems, isTruncated } = await ctx.pdf.run('find-tags', { bytes: file.data, maxTags });
    if (isTruncated)
      throw new AppError('limit-reached', `The PDF has more than ${maxTags} text tags; at most ${maxTags} fields fit.`);
    return { tags, problems };
  } catch (error) {
    if (error instanceof PdfReadError) throw new AppError('invalid-pdf', error.message);
    throw error;
  }
}

/** The tags not yet made into a field: pressing the button again makes only what is new. */
export function newTags(tags: readonly TextTag[], made: ReadonlyArray<string | null>): TextTag[] {
  const boxes = made.map(parseTagBox).filter((box): box is TagBox => box !== undefined);
  return tags.filter((tag) => !boxes.some((box) => sameTagBox(box, tagBoxOf(tag))));
}

/**
 * One annotation per text tag of a draft's PDF (`{{signature:1}}`: party 1 is the first party
 * added), over the tag's box. All or nothing: a tag written wrong or naming a party the
 * contract does not have makes nothing (400 naming each tag, its page and line). Tags already made into fields are skipped.
 */
export async function createAnnotationsFromTags(
  ctx: AppContext,
  contractId: number,
  actor: Actor,
  origin: RequestOrigin,
): Promise<AnnotationRow[]> {
  const contract = await findDraft(ctx, contractId, actor);
  const { tags, problems } = await readTags(ctx, contract.originalFileId, MAX_ANNOTATIONS_PER_CONTRACT);
  return inTransaction(ctx.db, async () => {
    const current = await findDraft(ctx, contractId, actor);
    // "First added" is creation order, whatever the signing order says.
    const parties = (await ctx.repos.parties.listInContract(contractId)).sort((a, b) => a.id - b.id);
    const existing = await ctx.repos.annotations.listInContract(contractId);
    const todo = newTags(
      tags,
      existing.map((annotation) => annotation.tagBox),
    );
    checkTags(todo, problems, parties.length, 'party');
    if (existing.length + todo.length > MAX_ANNOTATIONS_PER_CONTRACT) {
      throw new AppError(
        'limit-reached',
        `A contract holds at most ${MAX_ANNOTATIONS_PER_CONTRACT} annotations; the tags would make ${existing.length + todo.length}.`,
      );
    }
    const pageSizes = parsePageSizes(current.pageSizes);
    return mapInOrder(todo, async (tag) =>
      addAnnotation(
        ctx,
        {
          ...fieldBoxOfTag(tag, pageSizes[tag.page - 1] ?? [0, 0]),
          ...fieldDetailsOfTag(tag),
          type: tag.type,
          contractId,
          partyId: parties[tag.position - 1]!.id,
          tagBox: JSON.stringify(tagBoxOf(tag)),
        },
        actor.id,
        origin,
      ),
    );
  });
}
