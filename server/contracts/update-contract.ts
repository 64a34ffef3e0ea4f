import { saveMetadata } from './save-metadata';
import type { TContractUpdate } from '../../shared/api/contracts';
import type { AppContext } from '../context/app-context';
import type { ContractChanges, ContractRow } from '../db/repos/contracts';
import { inTransaction } from '../db/open-database';
import { notFound, validationFailed } from '../core/errors';
import type { Actor } from '../core/actor';
import type { PageSize } from '../pdf/pdf-read-error';
import {
  boxProblem,
  contractChangesOf,
  renderContractText,
  resolveTemplate,
  type RenderSource,
} from './contract-fields';
import { findDraft } from './find-draft';
import { logActivity, type RequestOrigin } from '../activity/log-activity';

/** Annotations must stay on the pages of a re-rendered PDF; otherwise the change is refused. */
async function checkAnnotationsFit(ctx: AppContext, contractId: number, pageSizes: readonly PageSize[]): Promise<void> {
  const lines: string[] = [];
  for (const annotation of await ctx.repos.annotations.listInContract(contractId)) {
    const problem = boxProblem(annotation, pageSizes);
    if (problem) {
      lines.push(
        `content: the new PDF leaves annotation /api/contracts/${contractId}/annotations/${annotation.id} off its page (${problem.message})`,
      );
    }
  }
  if (lines.length > 0) throw validationFailed(lines);
}

/**
 * Changes a draft. On a contract rendered from text, a new `content`, `template` or `language`
 * renders its PDF again; an uploaded PDF is never replaced by text, only by setting `template`.
 */
export async function updateContract(
  ctx: AppContext,
  id: number,
  input: TContractUpdate,
  actor: Actor,
  origin: RequestOrigin,
): Promise<ContractRow> {
  const current = await findDraft(ctx, id, actor);
  const changes: ContractChanges = contractChangesOf(ctx, input);
  const template =
    input.template === undefined || input.template === null
      ? undefined
      : await resolveTemplate(ctx, input.template, actor);
  if (template && template.pdfFileId !== null) {
    throw validationFailed([
      `template: ${input.template} is a PDF template; make a new contract from it (POST /api/contracts) instead`,
    ]);
  }
  if (input.template === null && current.templateId !== null) changes.templateId = null;
  if (template) {
    Object.assign(changes, {
      templateId: template.id,
      header: template.header,
      footer: template.footer,
      footerType: template.footerType,
    });
    changes.content = input.content ?? template.content;
  } else if (input.content !== undefined && input.content !== current.content) {
    if (current.source === 'upload') {
      throw validationFailed([
        "content: this contract's PDF was uploaded; set template to render it from text instead",
      ]);
    }
    changes.content = input.content;
  }
  const isRerendered =
    template !== undefined ||
    (current.source === 'rendered' &&
      (changes.content !== undefined || (changes.language ?? current.language) !== current.language));
  let rendered: { bytes: Uint8Array; pageSizes: PageSize[] } | undefined;
  if (isRerendered) {
    const source: RenderSource = {
      name: changes.name ?? current.name,
      header: changes.header ?? current.header,
      content: changes.content ?? current.content,
      footer: changes.footer ?? current.footer,
      footerType: changes.footerType ?? current.footerType,
      language: changes.language ?? current.language,
    };
    rendered = await renderContractText(source);
  }
  if (Object.keys(changes).length === 0 && input.metadata === undefined) return current;

  return inTransaction(ctx.db, async () => {
    const contract = await findDraft(ctx, id, actor);
    const now = ctx.now();
    if (rendered) {
      await checkAnnotationsFit(ctx, id, rendered.pageSizes);
      changes.originalFileId = await ctx.repos.files.putFile(rendered.bytes, 'application/pdf', now);
      changes.pageSizes = JSON.stringify(rendered.pageSizes);
    }
    const updated = await ctx.repos.contracts.update(id, {
      ...changes,
      ...(template ? { source: 'rendered' } : {}),
      updatedAt: now,
    });
    if (!updated) throw notFound('contract');
    // Rendered from another template, the fields a PDF template left waiting belong to no PDF any more.
    if (template) await ctx.repos.templateFields.dropWaiting(id);
    if (rendered && contract.originalFileId !== updated.originalFileId)
      await ctx.repos.files.releaseFile(contract.originalFileId);
    await saveMetadata(ctx, id, input.metadata);
    await logActivity(ctx, { contractId: id, event: 'contract.updated', userId: actor.id, ...origin });
    return updated;
  });
}
