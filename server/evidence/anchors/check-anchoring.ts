import type { ChainProblem, StoredChainEntry } from '../../activity/activity-chain';
import type { AnchorChainCheck } from './check-anchors';

/**
 * How far before an anchor's reading of the heads an entry may be dated and still legitimately
 * miss it: the transaction that writes an entry may take its time before it commits (a seal
 * waits for the authority up to 10 s). An entry dated earlier than that before an anchor which
 * does not hold it was written after the anchor and backdated.
 */
export const BACKDATE_TOLERANCE_MS = 10 * 60_000;

/** Entries up to `throughSequence` are proven by the authority's time of anchor `anchor`. */
export type AnchorProof = { anchor: number; throughSequence: number; authorityTime: number; authority: string };

export type AnchoringCheck = {
  /** Each time the proven part of the chain grew: the first anchor holding each entry. */
  proofs: AnchorProof[];
  problems: ChainProblem[];
};

/**
 * Checks one chain (a contract's log or the office log) against the office anchors that hold
 * its heads: every head an anchor folded must still be the entry at that sequence (the entries'
 * own hashes are recomputed by checkChain, so the head binds every entry before it), and no
 * entry may claim a time before an anchor that did not hold it. Anchors are taken as
 * re-derived from their tokens (checkAnchorChain), never as stored.
 */
export function checkAnchoring(
  chain: string,
  entries: readonly StoredChainEntry[],
  anchorChain: AnchorChainCheck,
): AnchoringCheck {
  const bySequence = new Map(entries.map((entry) => [entry.sequence, entry]));
  const problems: ChainProblem[] = [];
  const proofs: AnchorProof[] = [];
  const note = (sequence: number, problem: string) => {
    if (problems.length < 20) problems.push({ sequence, problem });
  };
  const at = (time: number) => new Date(time).toISOString();
  for (const anchor of anchorChain.anchors) {
    const head = anchor.heads.find((folded) => folded.chain === chain);
    if (!head) continue;
    const entry = bySequence.get(head.sequence);
    const by = `office anchor #${anchor.sequence} (timestamped by the authority at ${at(anchor.authorityTime)})`;
    if (!entry) note(head.sequence, `is missing, but ${by} holds it: entries were removed`);
    else if (entry.hash !== head.hash)
      note(head.sequence, `is not the entry ${by} holds: this or an earlier entry was rewritten`);
    const proven = proofs.at(-1)?.throughSequence ?? 0;
    if (head.sequence < proven)
      note(head.sequence, `${by} holds a shorter chain than an anchor before it: the chain was cut and written again`);
    else if (head.sequence > proven)
      proofs.push({
        anchor: anchor.sequence,
        throughSequence: head.sequence,
        authorityTime: anchor.authorityTime,
        authority: anchor.authority,
      });
  }
  // An entry dated before an anchor that did not hold it was written after that anchor.
  const sorted = [...entries].sort((a, b) => a.sequence - b.sequence);
  for (const entry of sorted) {
    const firstProof = proofs.find((proof) => proof.throughSequence >= entry.sequence);
    const before = anchorChain.anchors.filter(
      (anchor) => firstProof === undefined || anchor.sequence < firstProof.anchor,
    );
    const missedBy = before.findLast(
      (anchor) => Date.parse(entry.recordedTime) + BACKDATE_TOLERANCE_MS < anchor.createdAt,
    );
    if (missedBy)
      note(
        entry.sequence,
        `claims to have been recorded at ${entry.recordedTime}, but office anchor #${missedBy.sequence}, made after that (${at(missedBy.createdAt)}), does not hold it: it was written later and backdated`,
      );
  }
  return { proofs, problems };
}
