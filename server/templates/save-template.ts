import type { TTemplateCreate, TTemplateUpdate } from '../../shared/api/templates';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { TemplateChanges, TemplateRow } from '../db/repos/templates';
import { notFound } from '../core/errors';
import type { Actor } from '../core/actor';
import { findChangeableTemplate } from '../contracts/find-template';

export function createTemplate(ctx: AppContext, input: TTemplateCreate, authorId: number): TemplateRow {
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

export function updateTemplate(ctx: AppContext, id: number, input: TTemplateUpdate, actor: Actor): TemplateRow {
  const changes: TemplateChanges = { updatedAt: ctx.now() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.is_published !== undefined) changes.isPublished = input.is_published;
  if (input.header !== undefined) changes.header = input.header;
  if (input.content !== undefined) changes.content = input.content;
  if (input.footer !== undefined) changes.footer = input.footer;
  if (input.footer_type !== undefined) changes.footerType = input.footer_type;
  if (input.role_names !== undefined) changes.roleNames = JSON.stringify(input.role_names);
  return inTransaction(ctx.db, () => {
    findChangeableTemplate(ctx, id, actor);
    const row = ctx.repos.templates.update(id, changes);
    if (!row) throw notFound('contract template');
    return row;
  });
}

export function deleteTemplate(ctx: AppContext, id: number, actor: Actor): void {
  inTransaction(ctx.db, () => {
    const template = findChangeableTemplate(ctx, id, actor);
    if (!ctx.repos.templates.remove(id)) throw notFound('contract template');
    // Contracts made from it keep their copy (the same stored file, still referred to).
    if (template.pdfFileId !== null) ctx.repos.files.releaseFile(template.pdfFileId);
  });
}
