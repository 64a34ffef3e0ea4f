import type { TTemplateCreate, TTemplateUpdate } from '../../shared/api/templates';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { TemplateChanges, TemplateRow } from '../db/repos/templates';
import { notFound } from '../core/errors';
import type { Actor } from '../core/actor';
import { findChangeableTemplate } from '../contracts/find-template';

export async function createTemplate(ctx: AppContext, input: TTemplateCreate, authorId: number): Promise<TemplateRow> {
  const now = ctx.now();
  return ctx.repos.templates.insert({
    name: input.name,
    isPublished: input.is_published ?? false,
    header: input.header ?? '',
    content: input.content ?? '',
    footer: input.footer ?? '',
    footerType: input.footer_type ?? 'SIMPLE',
    roleNames: JSON.stringify(input.role_names ?? []),
    createdBy: authorId,
    createdAt: now,
    updatedAt: now,
  });
}

export async function updateTemplate(
  ctx: AppContext,
  id: number,
  input: TTemplateUpdate,
  actor: Actor,
): Promise<TemplateRow> {
  const changes: TemplateChanges = { updatedAt: ctx.now() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.is_published !== undefined) changes.isPublished = input.is_published;
  if (input.header !== undefined) changes.header = input.header;
  if (input.content !== undefined) changes.content = input.content;
  if (input.footer !== undefined) changes.footer = input.footer;
  if (input.footer_type !== undefined) changes.footerType = input.footer_type;
  if (input.role_names !== undefined) changes.roleNames = JSON.stringify(input.role_names);
  return inTransaction(ctx.db, async () => {
    await findChangeableTemplate(ctx, id, actor);
    const row = await ctx.repos.templates.update(id, changes);
    if (!row) throw notFound('contract template');
    return row;
  });
}

export async function deleteTemplate(ctx: AppContext, id: number, actor: Actor): Promise<void> {
  await inTransaction(ctx.db, async () => {
    const template = await findChangeableTemplate(ctx, id, actor);
    if (!(await ctx.repos.templates.remove(id))) throw notFound('contract template');
    // Contracts made from it keep their copy (the same stored file, still referred to).
    if (template.pdfFileId !== null) await ctx.repos.files.releaseFile(template.pdfFileId);
  });
}
