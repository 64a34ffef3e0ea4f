import type { AppContext } from '../context/app-context';
import type { TemplateRow } from '../db/repos/templates';
import { forbidden, notFound } from '../core/errors';
import type { Actor } from '../core/actor';

/** A template with its PDF: what a contract is made from (set-template-pdf gives a template one). */
export type PdfTemplate = TemplateRow & { pdfFileId: number; pageSizes: string };

/**
 * Templates an ordinary user may see: the published ones (the office's) and their own drafts.
 * Administrators see every template.
 */
export const isTemplateVisible = (actor: Actor, template: Pick<TemplateRow, 'isPublished' | 'createdBy'>): boolean =>
  actor.isAdmin || template.isPublished || template.createdBy === actor.id;

/** A template the actor may see and use; any other is 404, so its id is not confirmed. */
export function findVisibleTemplate(ctx: AppContext, id: number, actor: Actor): TemplateRow {
  const template = ctx.repos.templates.findById(id);
  if (!template || !isTemplateVisible(actor, template)) throw notFound('contract template');
  return template;
}

/**
 * A template the actor may change or delete: an administrator any, an ordinary user their own.
 * A published template of someone else is seen but not theirs to change (403).
 */
export function findChangeableTemplate(ctx: AppContext, id: number, actor: Actor): TemplateRow {
  const template = findVisibleTemplate(ctx, id, actor);
  if (!actor.isAdmin && template.createdBy !== actor.id) {
    throw forbidden('Only its author or an administrator may change this template.');
  }
  return template;
}
