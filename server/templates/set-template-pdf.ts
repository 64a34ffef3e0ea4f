import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { TemplateRow } from '../db/repos/templates';
import { notFound, validationFailed } from '../core/errors';
import { boxProblem, receiveUploadedPdf } from '../contracts/contract-fields';
import type { Actor } from '../core/actor';
import { findChangeableTemplate } from '../contracts/find-template';

/**
 * Makes a template a PDF template, or replaces its PDF: parsed on the PDF sandbox first; a
 * new PDF that would leave a field off its page is refused and changes nothing.
 */
export async function setTemplatePdf(
  ctx: AppContext,
  templateId: number,
  pdf: Buffer,
  actor: Actor,
): Promise<TemplateRow> {
  await findChangeableTemplate(ctx, templateId, actor);
  const { pageSizes, sha256, size } = await receiveUploadedPdf(ctx, pdf);
  return inTransaction(ctx.db, async () => {
    const template = await findChangeableTemplate(ctx, templateId, actor);
    const lines = (await ctx.repos.templateFields.listInTemplate(templateId)).flatMap((field) => {
      const problem = boxProblem(field, pageSizes);
      return problem
        ? [
            `pdf: the new PDF leaves field /api/contract_templates/${templateId}/fields/${field.id} off its page (${problem.message})`,
          ]
        : [];
    });
    if (lines.length > 0) throw validationFailed(lines);
    const now = ctx.now();
    const updated = await ctx.repos.templates.update(templateId, {
      pdfFileId: await ctx.repos.files.putPlacedFile(sha256, size, 'application/pdf', now),
      pageSizes: JSON.stringify(pageSizes),
      updatedAt: now,
    });
    if (!updated) throw notFound('contract template');
    if (template.pdfFileId !== null && template.pdfFileId !== updated.pdfFileId)
      await ctx.repos.files.releaseFile(template.pdfFileId);
    return updated;
  });
}
