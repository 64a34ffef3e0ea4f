import type { TContractCreate } from '../../../shared/api/contracts';
import type { AppContext } from '../../context';
import type { ContractRow } from '../../db/repos/contracts';
import { inTransaction } from '../../db/open-database';
import type { Actor } from '../../http/request-context';
import { contractChangesOf, readUploadedPdf, renderContractText, resolveTemplate } from './contract-fields';
import { logActivity, type RequestOrigin } from './log-activity';

/** A draft from an uploaded PDF; the PDF is parsed before anything is stored. */
export async function createContractFromPdf(ctx: AppContext, pdf: Buffer, actor: Actor, origin: RequestOrigin): Promise<ContractRow> {
  const pageSizes = await readUploadedPdf(ctx, pdf);
  return inTransaction(ctx.db, () => {
    const now = ctx.now();
    const contract = ctx.repos.contracts.insert({
      source: 'upload',
      originalFileId: ctx.repos.files.putFile(pdf, 'application/pdf', now),
      pageSizes: JSON.stringify(pageSizes),
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    logActivity(ctx, { contractId: contract.id, event: 'contract.created', userId: actor.id, ...origin });
    return contract;
  });
}

/**
 * A draft from JSON: its PDF is rendered from the template's header, content and footer (or
 * from `content` alone, with page numbers), so that a contract always has a PDF.
 */
export async function createContractFromJson(
  ctx: AppContext,
  input: TContractCreate,
  actor: Actor,
  origin: RequestOrigin,
): Promise<ContractRow> {
  const changes = contractChangesOf(ctx, input);
  const template = input.template === undefined || input.template === null ? undefined : resolveTemplate(ctx, input.template, actor);
  const text = {
    name: changes.name ?? '',
    header: template?.header ?? '',
    content: input.content ?? template?.content ?? '',
    footer: template?.footer ?? '',
    footerType: template?.footerType ?? 'SIMPLE',
    language: changes.language ?? 'en',
  };
  const rendered = await renderContractText(text);
  return inTransaction(ctx.db, () => {
    const now = ctx.now();
    const contract = ctx.repos.contracts.insert({
      ...changes,
      ...text,
      source: 'rendered',
      templateId: template?.id ?? null,
      originalFileId: ctx.repos.files.putFile(rendered.bytes, 'application/pdf', now),
      pageSizes: JSON.stringify(rendered.pageSizes),
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    logActivity(ctx, { contractId: contract.id, event: 'contract.created', userId: actor.id, ...origin });
    return contract;
  });
}
