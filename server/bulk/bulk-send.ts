import type { ReadContext } from '../context/read-context';
import type { TBulkParty, TBulkPreview, TBulkSend } from '../../shared/api/bulk-sends';
import type { AppContext } from '../context/app-context';
import type { BulkRowRow, BulkSendRow } from '../db/repos/bulk-sends';
import { inTransaction } from '../db/open-database';
import { AppError, notFound } from '../core/errors';
import type { Actor } from '../core/actor';
import type { PdfTemplate } from '../contracts/find-template';
import { findPdfTemplate } from '../templates/save-template-field';
import { readBulkCsv } from './read-bulk-csv';
import { maySeeBulkSend } from '../policies/bulk-sends';

export const BULK_SEND_QUEUE = 'bulk-send';

/** The PDF template a bulk send is made from: usable by this user, with fields for at least one role. */
export async function bulkTemplate(ctx: AppContext, templateId: number, actor: Actor): Promise<PdfTemplate> {
  const template = await findPdfTemplate(ctx, templateId, { actor, use: 'see' });
  if ((await ctx.repos.templateFields.roleCount(templateId)) === 0) {
    throw new AppError(
      'conflict',
      'The template has no fields yet: place the fields of its roles before sending it in bulk.',
    );
  }
  return template as PdfTemplate;
}

/** The CSV read against a template: each row with its parties and problems; nothing is made. */
export async function previewBulkSend(
  ctx: AppContext,
  templateId: number,
  csv: Buffer,
  actor: Actor,
): Promise<TBulkPreview> {
  const template = await bulkTemplate(ctx, templateId, actor);
  const roles = await ctx.repos.templateFields.roleCount(templateId);
  return readBulkCsv(
    csv,
    roles,
    (parties: TBulkParty[]) => [template.name, parties[0]?.name].filter(Boolean).join(' – '),
    JSON.parse(template.roleNames) as string[],
  );
}

/**
 * Makes a bulk send: the batch, one row per CSV row (rows with problems are recorded as
 * failed, with them), and one job per row to send, all in one transaction. A file whose every
 * row has problems is refused instead, and nothing is made.
 */
export async function createBulkSend(
  ctx: AppContext,
  templateId: number,
  csv: Buffer,
  actor: Actor,
): Promise<BulkSendRow> {
  const preview = await previewBulkSend(ctx, templateId, csv, actor);
  if (preview.valid === 0) {
    const lines = preview.rows.flatMap((row) => row.errors.map((error) => `line ${row.line}: ${error}`));
    throw new AppError(
      'validation-failed',
      preview.rows.length === 0
        ? 'The CSV file has no rows.'
        : 'No row of the CSV file can be sent; see validation_errors.',
      {
        validationErrors: lines.length > 0 ? lines.slice(0, 100) : ['file: has a header but no rows'],
      },
    );
  }
  return inTransaction(ctx.db, async () => {
    const template = await bulkTemplate(ctx, templateId, actor);
    const now = ctx.now();
    const batch = await ctx.repos.bulkSends.insert({
      templateId,
      templateName: template.name,
      createdBy: actor.id,
      createdAt: now,
    });
    for (const row of preview.rows) {
      const isValid = row.errors.length === 0;
      const stored = await ctx.repos.bulkSends.insertRow({
        bulkSendId: batch.id,
        line: row.line,
        contractName: row.contract_name,
        parties: JSON.stringify(row.parties),
        state: isValid ? 'pending' : 'failed',
        error: isValid ? null : row.errors.join('; '),
        contractId: null,
        updatedAt: now,
      });
      if (isValid) await ctx.repos.jobs.enqueue(BULK_SEND_QUEUE, stored.id, now, now);
    }
    return batch;
  });
}

export async function findBulkSend(ctx: ReadContext, id: number, actor: Actor): Promise<BulkSendRow> {
  const batch = await ctx.repos.bulkSends.findById(id);
  // Someone else's batch is as good as none to an ordinary user.
  if (!batch || !maySeeBulkSend(actor, batch)) throw notFound('bulk send');
  return batch;
}

export function presentBulkSend(ctx: ReadContext, batch: BulkSendRow, rows: readonly BulkRowRow[]): TBulkSend {
  const count = (state: string) => rows.filter((row) => row.state === state).length;
  return {
    self: `/api/bulk_sends/${batch.id}`,
    template: batch.templateId === null ? null : `/api/contract_templates/${batch.templateId}`,
    template_name: batch.templateName,
    created_by: `/api/users/${batch.createdBy}`,
    created_time: ctx.timestamp(batch.createdAt),
    total: rows.length,
    pending: count('pending'),
    sent: count('sent'),
    failed: count('failed'),
    rows: rows.map((row) => ({
      line: row.line,
      contract_name: row.contractName,
      parties: JSON.parse(row.parties) as TBulkParty[],
      state: row.state as 'pending' | 'sent' | 'failed',
      error: row.error,
      contract: row.contractId === null ? null : `/api/contracts/${row.contractId}`,
    })),
  };
}
