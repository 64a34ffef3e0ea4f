import { METADATA_MAX_KEYS } from '../../shared/api/contracts';
import type { AppContext } from '../context/app-context';
import { validationFailed } from '../core/errors';

/**
 * Sets a contract's metadata the way Stripe does: the keys given are set, a key given "" is
 * removed, the others stay; more than METADATA_MAX_KEYS in the end is refused (the caller's
 * transaction rolls back). Keys and values are checked by the schema (shared/api/contracts.ts).
 */
export async function saveMetadata(
  ctx: AppContext,
  contractId: number,
  metadata: Record<string, string> | undefined,
): Promise<void> {
  if (metadata === undefined) return;
  for (const [key, value] of Object.entries(metadata)) {
    if (value === '') await ctx.repos.contractMetadata.remove(contractId, key);
    else await ctx.repos.contractMetadata.set(contractId, key, value);
  }
  const count = Object.keys(await ctx.repos.contractMetadata.listOf(contractId)).length;
  if (count > METADATA_MAX_KEYS)
    throw validationFailed([`metadata: would have ${count} keys; at most ${METADATA_MAX_KEYS}`]);
}
