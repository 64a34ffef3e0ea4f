import type { Language } from '../../../shared/api/enums';
import { translatorFor } from '../../../shared/i18n/catalogues';
import { wrapParagraph } from '../readme-text';
import { strToU8 } from 'fflate';
import type { LogVerification } from './verify-log';
import { canonicalAnchor, canonicalHeads } from './anchor-form';

/** What README.txt says about the office anchors of one contract's log. */
export type AnchorFacts = {
  chain: string;
  /** The anchors that hold a head of this log, as files of the package. */
  held: {
    file: string;
    sequence: number;
    hash: string;
    headsRoot: string;
    head: { sequence: number; hash: string };
    authorityTime: string;
  }[];
  provenThrough: number;
  entries: number;
  /** The office's newest anchor when the package was made: a copy of it outside the office's database. */
  latest: { sequence: number; hash: string; authorityTime: string } | null;
};

/**
 * The package's office-anchors/ folder: for each anchor holding a head of this log, its
 * canonical form (NNNN.json, whose SHA-256 the authority's token stamps), the canonical list of
 * the heads it folds (NNNN-heads.json, whose SHA-256 is the anchor's heads root) and the token
 * (NNNN.tst). Taken from the anchors as re-derived from their tokens, not as stored.
 */
export function anchorEvidence(
  chain: string,
  verification: LogVerification,
): { files: Record<string, Uint8Array>; facts: AnchorFacts } {
  const files: Record<string, Uint8Array> = {};
  const held: AnchorFacts['held'] = [];
  for (const anchor of verification.anchorChain.anchors) {
    const head = anchor.heads.find((folded) => folded.chain === chain);
    if (!head) continue;
    const name = `office-anchors/${String(anchor.sequence).padStart(4, '0')}`;
    const heads = canonicalHeads(anchor.heads);
    files[`${name}.json`] = strToU8(
      canonicalAnchor({
        sequence: anchor.sequence,
        createdAt: anchor.createdAt,
        headsRoot: anchor.headsRoot,
        headCount: anchor.heads.length,
        previousHash: anchor.previousHash,
      }),
    );
    files[`${name}-heads.json`] = strToU8(heads);
    files[`${name}.tst`] = anchor.token;
    held.push({
      file: name,
      sequence: anchor.sequence,
      hash: anchor.hash,
      headsRoot: anchor.headsRoot,
      head: { sequence: head.sequence, hash: head.hash },
      authorityTime: new Date(anchor.authorityTime).toISOString(),
    });
  }
  const latest = verification.anchorChain.anchors.at(-1);
  return {
    files,
    facts: {
      chain,
      held,
      provenThrough: verification.proofs.at(-1)?.throughSequence ?? 0,
      entries: verification.entryCount,
      latest: latest
        ? { sequence: latest.sequence, hash: latest.hash, authorityTime: new Date(latest.authorityTime).toISOString() }
        : null,
    },
  };
}

/** README.txt's step on the office anchors: each held head, its anchor and the authority's token over it. */
export function anchorReadmeLines(
  facts: AnchorFacts,
  run: (command: string, ...expected: string[]) => void,
  add: (...text: string[]) => void,
  language: Language = 'en',
): void {
  const t = translatorFor(language, 'readme');
  const say = (text: string, indent = '') => add(...wrapParagraph(text, indent));
  say(
    t('anchors.intro', {
      format: '["signdesk-anchor-v1", sequence, created_time, heads_root, head_count, previous_hash]',
    }),
  );
  if (facts.held.length === 0) {
    add('');
    say(t('anchors.none'), '  ');
  }
  for (const anchor of facts.held) {
    run(
      `sha256sum ${anchor.file}.json ${anchor.file}-heads.json`,
      `${anchor.hash}  ${anchor.file}.json`,
      `${anchor.headsRoot}  ${anchor.file}-heads.json`,
    );
    run(`grep -c '"${anchor.headsRoot}"' ${anchor.file}.json`, '1');
    run(
      `grep -o '"${facts.chain}",${anchor.head.sequence},"${anchor.head.hash}"' ${anchor.file}-heads.json`,
      `"${facts.chain}",${anchor.head.sequence},"${anchor.head.hash}"`,
    );
    run(
      `openssl ts -verify -digest ${anchor.hash} -in ${anchor.file}.tst -token_in -CAfile TSA-ROOT.pem -attime ${Math.floor(Date.parse(anchor.authorityTime) / 1000)}`,
      '"Verification: OK"',
    );
    say(
      t('anchors.proves', {
        n: String(anchor.head.sequence),
        file: `activity-chain/${String(anchor.head.sequence).padStart(4, '0')}.json`,
        hash: anchor.head.hash,
        time: anchor.authorityTime,
      }),
      '  ',
    );
  }
  add('');
  say(t('anchors.proven', { through: String(facts.provenThrough), entries: String(facts.entries) }));
  if (facts.latest)
    say(
      t('anchors.latest', {
        n: String(facts.latest.sequence),
        hash: facts.latest.hash,
        time: facts.latest.authorityTime,
      }),
    );
}
