import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { chainUnchainedEntries } from '../activity/contract-chain';
import { sealTsaUrlAtRest } from './timestamps/tsa-settings';
import { recordIdentities } from './anchors/office-state';

/**
 * Brings a database from before the evidence features up to them, at every start (and after a
 * restore); quick when there is nothing to do. Entries of the activity log get their chain, and
 * contracts signed before get their seal record: the sealed file's hash (so the verify page
 * knows them) and no printed chain head (their audit trail has none) or timestamp. The
 * authority's URL, if an older version kept it in clear, is sealed (and stripped from seal records).
 */
export async function upgradeEvidence(ctx: AppContext): Promise<void> {
  await sealTsaUrlAtRest(ctx);
  await chainUnchainedEntries(ctx);
  await recordIdentities(ctx);
  const missing = await ctx.repos.seals.signedWithout();
  if (missing.length === 0) return;
  await inTransaction(ctx.db, async () => {
    for (const { contractId, signedFileId, signedAt } of missing) {
      const file = await ctx.repos.files.getFile(signedFileId);
      if (!file) continue;
      const at = signedAt ?? ctx.now();
      await ctx.repos.seals.insert({
        contractId,
        sealedSha256: file.sha256,
        sealedSize: file.size,
        timestampStatus: 'none',
        createdAt: at,
        updatedAt: at,
      });
    }
  });
  ctx.logger.info(
    { contracts: missing.length },
    'evidence: recorded the seals of contracts signed before this version',
  );
}
