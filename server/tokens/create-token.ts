import type { TokenKind } from '../../shared/api/enums';
import type { AppContext } from '../context/app-context';
import { generateApiKey } from '../crypto/api-key';
import type { TokenRow } from '../db/repos/tokens';
import { AppError } from '../core/errors';

export type CreateTokenInput = { name: string; kind: TokenKind; rateLimit: number | null; ownerUserId: number };

/** Makes a token; the returned key is the only time its secret exists outside a hash. */
export function createToken(ctx: AppContext, input: CreateTokenInput): { row: TokenRow; apiKey: string } {
  const owner = ctx.repos.users.findById(input.ownerUserId);
  if (!owner || !owner.active) {
    throw new AppError('validation-failed', 'The token owner must be an active user.', {
      validationErrors: ['user: must be an active user'],
    });
  }
  const key = generateApiKey();
  const row = ctx.repos.tokens.insert({
    publicId: key.publicId,
    secretHash: key.secretHash,
    name: input.name,
    kind: input.kind,
    rateLimit: input.rateLimit,
    ownerUserId: owner.id,
    createdAt: ctx.now(),
  });
  return { row, apiKey: key.key };
}
