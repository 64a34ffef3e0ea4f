import type { ReadContext } from '../context/read-context';
import type { TemplateRow } from '../db/repos/templates';
import { forbidden, notFound } from '../core/errors';
import type { Actor } from '../core/actor';
import { mayChangeTemplate, maySeeTemplate } from '../policies/templates';

/** A template with its PDF: what a contract is made from (set-template-pdf gives a template one). */
export type PdfTemplate = TemplateRow & { pdfFileId: number; pageSizes: string };

/** A template the actor may see and use; any other is 404, so its id is not confirmed. */
export async function findVisibleTemplate(ctx: ReadContext, id: number, actor: Actor): Promise<TemplateRow> {
  const template = await ctx.repos.templates.findById(id);
  if (!template || !maySeeTemplate(actor, template)) throw notFound('contract template');
  return template;
}

/**
 * A template the actor may change or delete: an administrator any, an ordinary user their own.
 * A published template of someone else is seen but not theirs to change (403).
 */
export async function findChangeableTemplate(ctx: ReadContext, id: number, actor: Actor): Promise<TemplateRow> {
  const template = await findVisibleTemplate(ctx, id, actor);
  if (!mayChangeTemplate(actor, template)) {
    throw forbidden('Only its author or an administrator may change this template.');
  }
  return template;
}
