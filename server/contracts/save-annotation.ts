import { annotationPath } from '../../shared/api/paths';
import { PARTY_PATH_PATTERN, type TAnnotationCreate, type TAnnotationUpdate } from '../../shared/api/annotations';
import { MAX_ANNOTATIONS_PER_CONTRACT } from '../../shared/constants';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { AnnotationChanges, AnnotationRow, NewAnnotation } from '../db/repos/annotations';
import { AppError, notFound, validationFailed } from '../core/errors';
import type { Actor } from '../core/actor';
import { boxChangesOf, checkBox, checkOptions } from './contract-fields';
import { findDraft } from './find-draft';
import { logActivity, type RequestOrigin } from '../activity/log-activity';

/** The party id of `party_id`, which must name a party of this very contract. */
async function partyIdOf(ctx: AppContext, contractId: number, path: string): Promise<number> {
  const match = PARTY_PATH_PATTERN.exec(path);
  const partyId = Number(match?.[2]);
  if (Number(match?.[1]) !== contractId || !(await ctx.repos.parties.findInContract(contractId, partyId))) {
    throw validationFailed([`party_id: ${path} is not a party of this contract`]);
  }
  return partyId;
}

export async function createAnnotation(
  ctx: AppContext,
  contractId: number,
  input: TAnnotationCreate,
  actor: Actor,
  origin: RequestOrigin,
): Promise<AnnotationRow> {
  const changes: AnnotationChanges = boxChangesOf(input);
  return inTransaction(ctx.db, async () => {
    const contract = await findDraft(ctx, contractId, actor);
    const partyId = await partyIdOf(ctx, contractId, input.party_id);
    const box = {
      pdfPage: input.pdf_page,
      posX: input.pos_x,
      posY: input.pos_y,
      width: input.width,
      height: input.height,
    };
    checkBox(contract.pageSizes, box);
    checkOptions({ type: input.type, options: changes.options ?? null });
    if ((await ctx.repos.annotations.countInContract(contractId)) >= MAX_ANNOTATIONS_PER_CONTRACT) {
      throw new AppError('limit-reached', `A contract holds at most ${MAX_ANNOTATIONS_PER_CONTRACT} annotations.`);
    }
    return addAnnotation(ctx, { ...changes, ...box, type: input.type, contractId, partyId }, actor.id, origin);
  });
}

/**
 * One annotation added to a draft, by hand, from a text tag or from a template's role, with its
 * activity entry; in the caller's transaction.
 */
export async function addAnnotation(
  ctx: AppContext,
  values: Omit<NewAnnotation, 'createdBy' | 'createdAt' | 'updatedAt'>,
  userId: number,
  origin: RequestOrigin,
): Promise<AnnotationRow> {
  const now = ctx.now();
  const annotation = await ctx.repos.annotations.insert({
    ...values,
    createdBy: userId,
    createdAt: now,
    updatedAt: now,
  });
  await logActivity(ctx, {
    contractId: annotation.contractId,
    event: 'annotation.added',
    subject: annotationPath(annotation),
    userId,
    ...origin,
  });
  return annotation;
}

export async function updateAnnotation(
  ctx: AppContext,
  contractId: number,
  annotationId: number,
  input: TAnnotationUpdate,
  actor: Actor,
  origin: RequestOrigin,
): Promise<AnnotationRow> {
  const changes: AnnotationChanges = boxChangesOf(input);
  return inTransaction(ctx.db, async () => {
    const contract = await findDraft(ctx, contractId, actor);
    const annotation = await ctx.repos.annotations.findInContract(contractId, annotationId);
    if (!annotation) throw notFound('annotation');
    if (input.party_id !== undefined) changes.partyId = await partyIdOf(ctx, contractId, input.party_id);
    checkBox(contract.pageSizes, { ...annotation, ...changes });
    if (changes.type !== undefined || changes.options !== undefined) checkOptions({ ...annotation, ...changes });
    if (Object.keys(changes).length === 0) return annotation;
    const updated =
      (await ctx.repos.annotations.update(annotationId, { ...changes, updatedAt: ctx.now() })) ?? annotation;
    await logActivity(ctx, {
      contractId,
      event: 'annotation.changed',
      subject: annotationPath(annotation),
      userId: actor.id,
      ...origin,
    });
    return updated;
  });
}

export async function deleteAnnotation(
  ctx: AppContext,
  contractId: number,
  annotationId: number,
  actor: Actor,
  origin: RequestOrigin,
): Promise<void> {
  await inTransaction(ctx.db, async () => {
    await findDraft(ctx, contractId, actor);
    const annotation = await ctx.repos.annotations.findInContract(contractId, annotationId);
    if (!annotation) throw notFound('annotation');
    await ctx.repos.annotations.remove(annotationId);
    await logActivity(ctx, {
      contractId,
      event: 'annotation.removed',
      subject: annotationPath(annotation),
      userId: actor.id,
      ...origin,
    });
  });
}
