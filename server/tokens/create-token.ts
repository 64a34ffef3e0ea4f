import type { TokenKind } from '../../shared/api/enums';
import type { AppContext } from '../context/app-context';
import { generateApiKey } from '../crypto/api-key';
import type { TokenRow } from '../db/repos/tokens';
import { AppError } from '../core/errors';
import { inTransaction } from '../db/open-database';
import { logOfficeEvent } from '../activity/office-log';

export type CreateTokenInput = { name: string; kind: TokenKind; rateLimit: number | null; ownerUserId: number };

/** Makes a token; the returned key is the only time its secret exists outside a hash. */
export async function createToken(
  ctx: AppContext,
  input: CreateTokenInput,
): Promise<{ row: TokenRow; apiKey: string }> {
  const owner = await ctx.repos.users.findById(input.ownerUserId);
  if (!owner || !owner.active) {
    throw new AppError('validation-failed', 'The token owner must be an active user.', {
      validationErrors: ['user: must be an active user'],
    });
  }
  const key = generateApiKey();
  const row = await inTransaction(ctx.db, async () => {
    const inserted = await insertToken(ctx, input, key, owner.id);
    await logOfficeEvent(ctx, {
      event: 'token.created',
      subject: `/api/users/${owner.id}`,
      details: { public_id: inserted.publicId, name: inserted.name, kind: inserted.kind },
    });
    return inserted;
  });
  return { row, apiKey: key.key };
}

async function insertToken(
  ctx: AppContext,
  input: CreateTokenInput,
  key: ReturnType<typeof generateApiKey>,
  ownerId: number,
): Promise<TokenRow> {
  return ctx.repos.tokens.insert({
    publicId: key.publicId,
    secretHash: key.secretHash,
    name: input.name,
    kind: input.kind,
    rateLimit: input.rateLimit,
    ownerUserId: ownerId,
    createdAt: ctx.now(),
  });
}
