import type { ReadContext } from '../context/read-context';
import type { TTemplateFieldCreate, TTemplateFieldUpdate } from '../../shared/api/template-fields';
import { MAX_ANNOTATIONS_PER_CONTRACT, MAX_PARTIES_PER_CONTRACT } from '../../shared/constants';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { TemplateFieldChanges, TemplateFieldRow } from '../db/repos/template-fields';
import { AppError, notFound } from '../core/errors';
import { readTags, newTags } from '../contracts/annotations-from-tags';
import { boxChangesOf, checkBox, checkOptions, parsePageSizes } from '../contracts/contract-fields';
import { checkTags, fieldBoxOfTag, fieldDetailsOfTag, tagBoxOf } from '../contracts/tag-fields';
import type { Actor } from '../core/actor';
import { findChangeableTemplate, findVisibleTemplate, type PdfTemplate } from '../contracts/find-template';
import { mapInOrder } from '../core/in-order';

export const templateFieldPath = (row: Pick<TemplateFieldRow, 'templateId' | 'id'>) =>
  `/api/contract_templates/${row.templateId}/fields/${row.id}`;

/** Who asks for a template: a user to see or to change it, or the appliance's own queue (a bulk send already accepted). */
export type TemplateAccess = { actor: Actor; use: 'see' | 'change' } | 'appliance';

/**
 * A template that has a PDF (409 for a text template), that the actor may see or change
 * (findVisibleTemplate, findChangeableTemplate: 404 when it is not theirs to see).
 */
export async function findPdfTemplate(
  ctx: ReadContext,
  templateId: number,
  access: TemplateAccess,
): Promise<PdfTemplate> {
  const template =
    access === 'appliance'
      ? await ctx.repos.templates.findById(templateId)
      : access.use === 'change'
        ? await findChangeableTemplate(ctx, templateId, access.actor)
        : await findVisibleTemplate(ctx, templateId, access.actor);
  if (!template) throw notFound('contract template');
  if (template.pdfFileId === null || template.pageSizes === null) {
    throw new AppError(
      'conflict',
      'This is a text template: its PDF is rendered from its text and has no fields. Upload a PDF (PUT /api/contract_templates/{template_id}/pdf) to place fields.',
    );
  }
  return template as PdfTemplate;
}

function changesOf(input: TTemplateFieldUpdate): TemplateFieldChanges {
  const changes: TemplateFieldChanges = boxChangesOf(input);
  if (input.role !== undefined) changes.role = input.role;
  return changes;
}

async function checkRoom(ctx: AppContext, templateId: number, adding: number): Promise<void> {
  const total = (await ctx.repos.templateFields.countInTemplate(templateId)) + adding;
  if (total > MAX_ANNOTATIONS_PER_CONTRACT)
    throw new AppError('limit-reached', `A template holds at most ${MAX_ANNOTATIONS_PER_CONTRACT} fields.`);
}

export async function createTemplateField(
  ctx: AppContext,
  templateId: number,
  input: TTemplateFieldCreate,
  actor: Actor,
): Promise<TemplateFieldRow> {
  const changes = changesOf(input);
  return inTransaction(ctx.db, async () => {
    const template = await findPdfTemplate(ctx, templateId, { actor, use: 'change' });
    const box = {
      pdfPage: input.pdf_page,
      posX: input.pos_x,
      posY: input.pos_y,
      width: input.width,
      height: input.height,
    };
    checkBox(template.pageSizes, box);
    checkOptions({ type: input.type, options: changes.options ?? null });
    await checkRoom(ctx, templateId, 1);
    const now = ctx.now();
    const row = await ctx.repos.templateFields.insert({
      ...changes,
      ...box,
      role: input.role,
      type: input.type,
      templateId,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    await ctx.repos.templates.update(templateId, { updatedAt: now });
    return row;
  });
}

export async function updateTemplateField(
  ctx: AppContext,
  templateId: number,
  fieldId: number,
  input: TTemplateFieldUpdate,
  actor: Actor,
): Promise<TemplateFieldRow> {
  const changes = changesOf(input);
  return inTransaction(ctx.db, async () => {
    const template = await findPdfTemplate(ctx, templateId, { actor, use: 'change' });
    const field = await ctx.repos.templateFields.findInTemplate(templateId, fieldId);
    if (!field) throw notFound('template field');
    checkBox(template.pageSizes, { ...field, ...changes });
    if (changes.type !== undefined || changes.options !== undefined) checkOptions({ ...field, ...changes });
    if (Object.keys(changes).length === 0) return field;
    const now = ctx.now();
    await ctx.repos.templates.update(templateId, { updatedAt: now });
    return (await ctx.repos.templateFields.update(fieldId, { ...changes, updatedAt: now })) ?? field;
  });
}

export async function deleteTemplateField(
  ctx: AppContext,
  templateId: number,
  fieldId: number,
  actor: Actor,
): Promise<void> {
  await inTransaction(ctx.db, async () => {
    await findPdfTemplate(ctx, templateId, { actor, use: 'change' });
    if (!(await ctx.repos.templateFields.findInTemplate(templateId, fieldId))) throw notFound('template field');
    await ctx.repos.templateFields.remove(fieldId);
    await ctx.repos.templates.update(templateId, { updatedAt: ctx.now() });
  });
}

/** One field per text tag of the template's PDF, for the role its number names; tags already made are skipped. */
export async function createTemplateFieldsFromTags(
  ctx: AppContext,
  templateId: number,
  actor: Actor,
): Promise<TemplateFieldRow[]> {
  const template = await findPdfTemplate(ctx, templateId, { actor, use: 'change' });
  const { tags, problems } = await readTags(ctx, template.pdfFileId, MAX_ANNOTATIONS_PER_CONTRACT);
  return inTransaction(ctx.db, async () => {
    const current = await findPdfTemplate(ctx, templateId, { actor, use: 'change' });
    // The PDF was replaced while its tags were read: they are not this PDF's.
    if (current.pdfFileId !== template.pdfFileId)
      throw new AppError('conflict', 'The template’s PDF changed meanwhile; try again.');
    const existing = await ctx.repos.templateFields.listInTemplate(templateId);
    const todo = newTags(
      tags,
      existing.map((field) => field.tagBox),
    );
    checkTags(todo, problems, MAX_PARTIES_PER_CONTRACT, 'role');
    await checkRoom(ctx, templateId, todo.length);
    const pageSizes = parsePageSizes(current.pageSizes);
    const now = ctx.now();
    const made = await mapInOrder(todo, async (tag) =>
      ctx.repos.templateFields.insert({
        ...fieldBoxOfTag(tag, pageSizes[tag.page - 1] ?? [0, 0]),
        ...fieldDetailsOfTag(tag),
        role: tag.position,
        type: tag.type,
        templateId,
        tagBox: JSON.stringify(tagBoxOf(tag)),
        createdBy: actor.id,
        createdAt: now,
        updatedAt: now,
      }),
    );
    if (made.length > 0) await ctx.repos.templates.update(templateId, { updatedAt: now });
    return made;
  });
}
