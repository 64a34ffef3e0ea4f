import type { TContractCreate } from '../../shared/api/contracts';
import type { AppContext } from '../context/app-context';
import type { ContractChanges, ContractRow } from '../db/repos/contracts';
import { inTransaction } from '../db/open-database';
import type { Actor } from '../core/actor';
import { contractChangesOf, receiveUploadedPdf, renderContractText, resolveTemplate } from './contract-fields';
import { logActivity, type RequestOrigin } from '../activity/log-activity';
import { copyTemplateFields } from './role-fields';
import { validationFailed } from '../core/errors';
import { initialReminders } from '../settings/reminder-defaults';
import type { PdfTemplate } from './find-template';
import { saveMetadata } from './save-metadata';

/** A draft from an uploaded PDF (named by `?name=`, else unnamed); the PDF is parsed before anything is stored. */
export async function createContractFromPdf(
  ctx: AppContext,
  pdf: Buffer,
  name: string | undefined,
  actor: Actor,
  origin: RequestOrigin,
  metadata?: Record<string, string>,
): Promise<ContractRow> {
  const { pageSizes, sha256, size } = await receiveUploadedPdf(ctx, pdf);
  return inTransaction(ctx.db, async () => {
    const now = ctx.now();
    const contract = await ctx.repos.contracts.insert({
      ...(await initialReminders(ctx)),
      ...(name === undefined ? {} : { name }),
      source: 'upload',
      originalFileId: await ctx.repos.files.putPlacedFile(sha256, size, 'application/pdf', now),
      pageSizes: JSON.stringify(pageSizes),
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    await saveMetadata(ctx, contract.id, metadata);
    await logActivity(ctx, { contractId: contract.id, event: 'contract.created', userId: actor.id, ...origin });
    return contract;
  });
}

/**
 * A draft from a PDF template: its PDF as it is (the same stored file) and its fields, which
 * wait for their parties: the first party added takes role 1's, the second role 2's.
 */
export async function createContractFromPdfTemplate(
  ctx: AppContext,
  template: PdfTemplate,
  input: TContractCreate,
  changes: ContractChanges,
  actor: Actor,
  origin: RequestOrigin,
): Promise<ContractRow> {
  if (input.content !== undefined)
    throw validationFailed([`content: ${input.template} is a PDF template; its PDF is used as it is`]);
  return inTransaction(ctx.db, async () => {
    const now = ctx.now();
    const contract = await ctx.repos.contracts.insert({
      ...(await initialReminders(ctx)),
      ...changes,
      source: 'upload',
      templateId: template.id,
      roleNames: template.roleNames,
      originalFileId: template.pdfFileId,
      pageSizes: template.pageSizes,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    await copyTemplateFields(ctx, contract.id, await ctx.repos.templateFields.listInTemplate(template.id));
    await saveMetadata(ctx, contract.id, input.metadata);
    await logActivity(ctx, { contractId: contract.id, event: 'contract.created', userId: actor.id, ...origin });
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
  const template =
    input.template === undefined || input.template === null
      ? undefined
      : await resolveTemplate(ctx, input.template, actor);
  if (template && template.pdfFileId !== null)
    return createContractFromPdfTemplate(ctx, template as PdfTemplate, input, changes, actor, origin);
  const text = {
    name: changes.name ?? '',
    header: template?.header ?? '',
    content: input.content ?? template?.content ?? '',
    footer: template?.footer ?? '',
    footerType: template?.footerType ?? 'SIMPLE',
    language: changes.language ?? 'en',
  };
  const rendered = await renderContractText(text);
  return inTransaction(ctx.db, async () => {
    const now = ctx.now();
    const contract = await ctx.repos.contracts.insert({
      ...(await initialReminders(ctx)),
      ...changes,
      ...text,
      source: 'rendered',
      templateId: template?.id ?? null,
      originalFileId: await ctx.repos.files.putFile(rendered.bytes, 'application/pdf', now),
      pageSizes: JSON.stringify(rendered.pageSizes),
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    await saveMetadata(ctx, contract.id, input.metadata);
    await logActivity(ctx, { contractId: contract.id, event: 'contract.created', userId: actor.id, ...origin });
    return contract;
  });
}
