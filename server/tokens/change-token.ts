import type { TTokenUpdate } from '../../shared/api/partner';
import type { AppContext } from '../context/app-context';
import type { TokenRow } from '../db/repos/tokens';
import { notFound } from '../core/errors';
import { inTransaction } from '../db/open-database';
import { logOfficeEvent } from '../activity/office-log';

export async function updateToken(ctx: AppContext, id: number, input: TTokenUpdate): Promise<TokenRow> {
  const changes: Partial<Pick<TokenRow, 'name' | 'rateLimit'>> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.rate_limit !== undefined) changes.rateLimit = input.rate_limit;
  const row =
    Object.keys(changes).length > 0 ? await ctx.repos.tokens.update(id, changes) : await ctx.repos.tokens.findById(id);
  if (!row) throw notFound('API token');
  return row;
}

/** Revoking keeps the row (the admin sees when it was revoked); the key stops working at once. */
export async function revokeToken(ctx: AppContext, id: number): Promise<void> {
  const row = await ctx.repos.tokens.findById(id);
  if (!row) throw notFound('API token');
  if (row.revokedAt === null)
    await inTransaction(ctx.db, async () => {
      await ctx.repos.tokens.update(id, { revokedAt: ctx.now() });
      await logOfficeEvent(ctx, {
        event: 'token.revoked',
        subject: `/api/users/${row.ownerUserId}`,
        details: { public_id: row.publicId, name: row.name },
      });
    });
  ctx.rateLimiter.forget(`token:${id}`);
}
