import { createHash } from 'node:crypto';

/** The `previous_hash` of a contract's first entry. */
export const CHAIN_GENESIS = '0'.repeat(64);
/** The first element of every canonical form: names the algorithm, so that a v2 can never be mistaken for it. */
export const CHAIN_VERSION = 'signdesk-activity-v1';

/** Keys of an entry's details: lower-case words, so that every JSON library orders them alike. */
export const DETAIL_KEY = /^[a-z][a-z0-9_]*$/;

/** An activity-log entry as the API shows it: everything its hash covers. */
export type ChainEntry = {
  /** The contract's path, e.g. /api/contracts/7 */
  contract: string;
  sequence: number;
  /** The recording time in UTC with milliseconds, e.g. 2026-11-23T22:59:50.829Z */
  recordedTime: string;
  event: string;
  subject: string;
  /** Who acted: a user's path, a party's path (the party acting from its link), or empty (the appliance). */
  actor: string;
  userAgent: string;
  ipAddress: string;
  details: Readonly<Record<string, string>>;
  previousHash: string;
};

/**
 * The bytes an entry's hash is taken over: the UTF-8 of the JSON array
 * `["signdesk-activity-v1", contract, sequence, recorded_time, event, subject, actor, user_agent,
 * ip_address, details, previous_hash]`, written without spaces and with the keys of `details`
 * sorted. That is what JavaScript's JSON.stringify writes, and what Python's
 * `json.dumps(value, ensure_ascii=False, separators=(',', ':'), sort_keys=True)` writes too, so
 * anyone can recompute a hash from the API's log with either.
 */
export function canonicalEntry(entry: ChainEntry): string {
  const details: Record<string, string> = {};
  for (const key of Object.keys(entry.details).sort()) details[key] = entry.details[key]!;
  return JSON.stringify([
    CHAIN_VERSION,
    entry.contract,
    entry.sequence,
    entry.recordedTime,
    entry.event,
    entry.subject,
    entry.actor,
    entry.userAgent,
    entry.ipAddress,
    details,
    entry.previousHash,
  ]);
}

/** SHA-256 (lower-case hex) of the entry's canonical form. */
export function hashEntry(entry: ChainEntry): string {
  return createHash('sha256').update(canonicalEntry(entry), 'utf8').digest('hex');
}

export type ChainProblem = { sequence: number; problem: string };

/**
 * How much earlier than the entry before it an entry may be dated (issue 39). A writer takes its
 * time just before it waits for the one write lock (the signing entries, dated when the seal was
 * begun, are written only if no entry came in meanwhile), so a chain's times go back only by
 * such a wait, milliseconds and at most the 5 s SQLite waits for the lock, or when this PC's
 * clock is set back. Five seconds cover the wait and a time service's small corrections; a clock
 * set back further shows as the problem it is (beside the warning against the authority's time).
 */
export const TIME_ORDER_TOLERANCE_MS = 5000;

export type ChainCheck = {
  isIntact: boolean;
  entryCount: number;
  head: { sequence: number; hash: string } | null;
  /** The first problems found, in order (at most 20). */
  problems: ChainProblem[];
};

/** An entry as stored: what it claims its hash is. */
export type StoredChainEntry = ChainEntry & { hash: string };

/**
 * Recomputes a contract's chain from its entries (any order): the sequence must run 1, 2, … with
 * no gap, each entry must name the hash of the one before, and each stored hash must be the hash
 * of what the entry says now. A changed, removed or inserted past entry fails one of those.
 * `anchor` is a head recorded elsewhere (printed in the sealed PDF): the chain must still hold it.
 */
export function checkChain(
  entries: readonly StoredChainEntry[],
  anchor?: { sequence: number; hash: string } | null,
): ChainCheck {
  const sorted = [...entries].sort((a, b) => a.sequence - b.sequence);
  const problems: ChainProblem[] = [];
  const note = (sequence: number, problem: string) => {
    if (problems.length < 20) problems.push({ sequence, problem });
  };
  let previous = CHAIN_GENESIS;
  let before: StoredChainEntry | undefined;
  sorted.forEach((entry, index) => {
    if (entry.sequence !== index + 1)
      note(entry.sequence, `expected entry ${index + 1} here: an entry is missing or was inserted`);
    if (entry.previousHash !== previous) note(entry.sequence, 'does not name the hash of the entry before it');
    if (hashEntry(entry) !== entry.hash)
      note(entry.sequence, 'its hash does not match its contents: the entry was changed after it was written');
    if (before && Date.parse(entry.recordedTime) + TIME_ORDER_TOLERANCE_MS < Date.parse(before.recordedTime))
      note(
        entry.sequence,
        `is dated ${entry.recordedTime}, before the entry before it (#${before.sequence}, ${before.recordedTime}): entries are written in order, so it was inserted or backdated later (or this PC's clock was set back)`,
      );
    previous = entry.hash;
    before = entry;
  });
  const last = sorted.at(-1);
  if (anchor) {
    const anchored = sorted.find((entry) => entry.sequence === anchor.sequence);
    if (!anchored || anchored.hash !== anchor.hash)
      note(anchor.sequence, 'is not the entry whose hash the sealed audit trail prints');
  }
  return {
    isIntact: problems.length === 0,
    entryCount: sorted.length,
    head: last ? { sequence: last.sequence, hash: last.hash } : null,
    problems,
  };
}
