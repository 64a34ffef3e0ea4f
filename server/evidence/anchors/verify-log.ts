import type { ChainCheck, ChainProblem, StoredChainEntry } from '../../activity/activity-chain';
import { checkContractChain, storedChainEntryOf } from '../../activity/contract-chain';
import { OFFICE_CHAIN, checkOfficeChain } from '../../activity/office-log';
import type { AppContext } from '../../context/app-context';
import { checkAnchorChain, type AnchorChainCheck } from './check-anchors';
import { checkAnchoring, type AnchorProof } from './check-anchoring';
import { checkOfficeState } from './office-state';

export type LogVerification = ChainCheck & {
  /** Each time the part of the chain proven by an outside timestamp grew, oldest first. */
  proofs: AnchorProof[];
  /** The anchor chain as re-derived (its problems are in `problems` too, as sequence 0). */
  anchorChain: AnchorChainCheck;
};

function merge(
  check: ChainCheck,
  chain: string,
  entries: readonly StoredChainEntry[],
  anchorChain: AnchorChainCheck,
  more: readonly ChainProblem[] = [],
): LogVerification {
  const anchoring = checkAnchoring(chain, entries, anchorChain);
  const problems: ChainProblem[] = [
    ...check.problems,
    ...anchorChain.problems.map((problem) => ({ sequence: 0, problem })),
    ...anchoring.problems,
    ...more,
  ].slice(0, 20);
  return { ...check, isIntact: problems.length === 0, problems, proofs: anchoring.proofs, anchorChain };
}

/**
 * A contract's log checked end to end: its own chain (checkChain, against the head its sealed
 * audit trail prints) and against every office anchor that holds its heads, re-derived from the
 * authority's tokens. Entries up to the last proof cannot be changed, removed or inserted
 * without this saying so, whatever else in the database was changed to match.
 */
export async function verifyContractLog(ctx: AppContext, contractId: number): Promise<LogVerification> {
  const entries = (await ctx.repos.activity.listChain(contractId)).map(storedChainEntryOf);
  return merge(
    await checkContractChain(ctx, contractId),
    `/api/contracts/${contractId}`,
    entries,
    await checkAnchorChain(ctx),
  );
}

/**
 * The office log checked as a contract's is, and the office against it and the anchors: no
 * anchored contract gone unrecorded, every user's e-mail and consumer's key as last recorded.
 */
export async function verifyOfficeLog(ctx: AppContext): Promise<LogVerification> {
  const { check, entries } = await checkOfficeChain(ctx);
  const anchorChain = await checkAnchorChain(ctx);
  return merge(check, OFFICE_CHAIN, entries, anchorChain, await checkOfficeState(ctx, anchorChain, entries));
}
