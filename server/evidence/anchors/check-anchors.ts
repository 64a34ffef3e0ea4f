import { createHash } from 'node:crypto';
import type { AppContext } from '../../context/app-context';
import type { AnchorRow, FoldedHead } from '../../db/repos/office-evidence';
import { readTimestampToken } from '../../crypto/rfc3161';
import { ANCHOR_GENESIS, hashAnchor, headsRootOf } from './anchor-form';

/** An anchor as re-derived from its row and its token: its time is the token's, never the row's. */
export type ProvenAnchor = {
  sequence: number;
  createdAt: number;
  hash: string;
  headsRoot: string;
  previousHash: string;
  token: Buffer;
  /** The authority's time, read from the token (whose signature and imprint were checked). */
  authorityTime: number;
  authority: string;
  heads: FoldedHead[];
};

export type AnchorChainCheck = {
  isIntact: boolean;
  /** The anchors that hold, in order, up to the first that does not. */
  anchors: ProvenAnchor[];
  problems: string[];
};

/** Token checks are pure and cost a signature verification: kept per token and expected imprint. */
const tokenChecks = new Map<string, { time: number; authority: string } | string>();

function checkToken(token: Buffer, hash: string): { time: number; authority: string } | string {
  const key = `${createHash('sha256').update(token).digest('hex')}:${hash}`;
  const known = tokenChecks.get(key);
  if (known !== undefined) return known;
  let result: { time: number; authority: string } | string;
  try {
    const read = readTimestampToken(token);
    if (read.problem) result = `its timestamp token is not valid: ${read.problem}`;
    else if (read.imprintDigest !== 'sha256' || read.imprint.toString('hex') !== hash)
      result = "its timestamp token stamps another hash: the anchor's contents were changed after it was timestamped";
    else result = { time: read.token.genTime.getTime(), authority: read.token.signer.subject.replaceAll('\n', ', ') };
  } catch (error) {
    result = `its timestamp token cannot be read (${error instanceof Error ? error.message : String(error)})`;
  }
  if (tokenChecks.size > 10_000) tokenChecks.clear();
  tokenChecks.set(key, result);
  return result;
}

/**
 * Re-derives the office anchor chain from the rows alone: each anchor's heads hash to its root,
 * its fields hash to its hash, the hash is what its token's imprint holds (the token verified
 * by its own certificate), each names the hash of the one before, the sequence runs 1, 2, …
 * and the authority's times never go back. The stored hash and time are never trusted; the
 * first anchor that fails ends the proven chain (what follows rests on it).
 */
export async function checkAnchorChain(ctx: AppContext): Promise<AnchorChainCheck> {
  const rows: AnchorRow[] = await ctx.repos.officeEvidence.listAnchors();
  const headsByAnchor = await ctx.repos.officeEvidence.listAnchorHeads();
  const anchors: ProvenAnchor[] = [];
  const problems: string[] = [];
  let previousHash = ANCHOR_GENESIS;
  let previousTime = -Infinity;
  for (const [index, row] of rows.entries()) {
    const heads = headsByAnchor.get(row.id) ?? [];
    const hash = hashAnchor({ ...row, headsRoot: headsRootOf(heads), headCount: heads.length });
    const fail = (problem: string) => problems.push(`office anchor #${row.sequence}: ${problem}`);
    if (row.sequence !== index + 1) fail(`expected anchor #${index + 1} here: an anchor is missing or was inserted`);
    else if (row.previousHash !== previousHash) fail('does not name the hash of the anchor before it');
    else {
      const token = checkToken(row.token, hash);
      if (typeof token === 'string') fail(token);
      else if (token.time < previousTime) fail("its authority's time is before the anchor before it");
      else {
        anchors.push({
          sequence: row.sequence,
          createdAt: row.createdAt,
          hash,
          headsRoot: headsRootOf(heads),
          previousHash,
          token: row.token,
          authorityTime: token.time,
          authority: token.authority,
          heads,
        });
        previousHash = hash;
        previousTime = token.time;
        continue;
      }
    }
    break;
  }
  return { isIntact: problems.length === 0, anchors, problems };
}
