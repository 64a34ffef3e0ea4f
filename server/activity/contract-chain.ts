import type { AppContext } from '../context/app-context';
import type { ActivityRow } from '../db/repos/activity-log';
import { inTransaction } from '../db/open-database';
import { chainActivity, chainEntryOf } from './log-activity';
import { checkChain, type ChainCheck, type StoredChainEntry } from './activity-chain';

/** A stored row as the chain sees it (a row not chained yet counts as sequence 0 with no hash, which fails the check). */
export function storedChainEntryOf(row: ActivityRow): StoredChainEntry {
  const entry = chainEntryOf({ ...row, sequence: row.sequence ?? 0, previousHash: row.previousHash ?? '' });
  return { ...entry, hash: row.hash ?? '' };
}

/** Recomputes a contract's whole chain from the database, against the head its sealed audit trail prints. */
export async function checkContractChain(ctx: AppContext, contractId: number): Promise<ChainCheck> {
  const rows = await ctx.repos.activity.listChain(contractId);
  const seal = await ctx.repos.seals.find(contractId);
  const anchor =
    seal?.chainHeadSequence != null && seal.chainHeadHash
      ? { sequence: seal.chainHeadSequence, hash: seal.chainHeadHash }
      : null;
  return checkChain(rows.map(storedChainEntryOf), anchor);
}

/**
 * The start-up step of the upgrade that brought the chain: entries written before it have no
 * sequence or hash, so each contract's are chained now, oldest first (by id), after whatever
 * that contract's chain already holds. It runs at every start and after a restore, and finds
 * nothing to do once done (a partial index holds only unchained rows). One transaction per
 * contract, so a crash halfway leaves every contract either chained or not yet.
 */
export async function chainUnchainedEntries(ctx: AppContext): Promise<number> {
  let chained = 0;
  for (const contractId of await ctx.repos.activity.contractsWithUnchained()) {
    await inTransaction(ctx.db, async () => {
      let head = await ctx.repos.activity.head(contractId);
      for (const row of await ctx.repos.activity.unchainedOf(contractId)) {
        const next = chainActivity(
          { ...row, details: JSON.parse(row.details) as Record<string, string> },
          row.createdAt,
          head,
        );
        await ctx.repos.activity.setChain(row.id, next.sequence, next.previousHash, next.hash);
        head = { sequence: next.sequence, hash: next.hash };
        chained += 1;
      }
    });
  }
  if (chained > 0) ctx.logger.info({ chained }, 'activity log: chained the entries written before the hash chain');
  return chained;
}
