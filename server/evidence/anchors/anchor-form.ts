import { createHash } from 'node:crypto';
import type { FoldedHead } from '../../db/repos/office-evidence';

/** The first element of an anchor's canonical form. */
export const ANCHOR_VERSION = 'signdesk-anchor-v1';
export const ANCHOR_GENESIS = '0'.repeat(64);

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The folded heads as hashed: a JSON array of `[chain, sequence, hash]`, sorted by chain, no
 * spaces (`JSON.stringify`; Python `json.dumps(heads, separators=(",", ":"))`).
 */
export function canonicalHeads(heads: readonly FoldedHead[]): string {
  const sorted = [...heads].sort((a, b) => (a.chain < b.chain ? -1 : a.chain > b.chain ? 1 : 0));
  return JSON.stringify(sorted.map((head) => [head.chain, head.sequence, head.hash]));
}

export const headsRootOf = (heads: readonly FoldedHead[]): string => sha256Hex(canonicalHeads(heads));

export type AnchorFields = {
  sequence: number;
  createdAt: number;
  headsRoot: string;
  headCount: number;
  previousHash: string;
};

/**
 * The bytes an anchor's hash is taken over, and the authority stamps (its token's message
 * imprint is their SHA-256): `["signdesk-anchor-v1", sequence, created_time, heads_root,
 * head_count, previous_hash]`, created_time in ISO-8601 UTC with milliseconds.
 */
export function canonicalAnchor(anchor: AnchorFields): string {
  return JSON.stringify([
    ANCHOR_VERSION,
    anchor.sequence,
    new Date(anchor.createdAt).toISOString(),
    anchor.headsRoot,
    anchor.headCount,
    anchor.previousHash,
  ]);
}

export const hashAnchor = (anchor: AnchorFields): string => sha256Hex(canonicalAnchor(anchor));
