import type { ChainProblem, StoredChainEntry } from '../../activity/activity-chain';
import type { AnchorChainCheck } from './check-anchors';

/**
 * How far before an anchor's reading of the heads the entries of a signing may be dated and still
 * legitimately miss it: they are dated when the seal is begun and written once it is made (a
 * seal waits for the authority up to 10 s, and for a busy machine). Only the entries of the
 * signing batch get it: those dated exactly as the chain's first `contract.signed` entry, at or
 * before it; an insider cannot date an appended entry into that batch without rewriting an
 * anchored one.
 */
export const BACKDATE_TOLERANCE_MS = 10 * 60_000;
/**
 * The same for every other entry (issue 39): it takes its time just before it waits for the
 * write lock, and an anchor written while entries dated before its reading came in is made again
 * (makeAnchor), so only an entry that waited through the anchor's reading and writing, and the
 * authority's answer between them, could miss an anchor made after its time.
 */
export const ANCHOR_ORDER_TOLERANCE_MS = 5000;

/**
 * The grace of each entry (`entries` sorted): the signing batch's, or the ordinary one. A
 * contract is signed once, so only the first `contract.signed` makes a batch: one appended later
 * (by an insider, to lend an entry the batch's grace) makes none.
 */
function graceOf(entries: readonly StoredChainEntry[]): (entry: StoredChainEntry) => number {
  const signed = entries.find((entry) => entry.event === 'contract.signed');
  return (entry) =>
    signed && signed.sequence >= entry.sequence && signed.recordedTime === entry.recordedTime
      ? BACKDATE_TOLERANCE_MS
      : ANCHOR_ORDER_TOLERANCE_MS;
}

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
  const grace = graceOf(sorted);
  for (const entry of sorted) {
    const firstProof = proofs.find((proof) => proof.throughSequence >= entry.sequence);
    const before = anchorChain.anchors.filter(
      (anchor) => firstProof === undefined || anchor.sequence < firstProof.anchor,
    );
    const missedBy = before.findLast((anchor) => Date.parse(entry.recordedTime) + grace(entry) < anchor.createdAt);
    if (missedBy)
      note(
        entry.sequence,
        `claims to have been recorded at ${entry.recordedTime}, but office anchor #${missedBy.sequence}, made after that (${at(missedBy.createdAt)}), does not hold it: it was written later and backdated`,
      );
  }
  return { proofs, problems };
}
