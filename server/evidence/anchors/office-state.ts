import type { ChainProblem, StoredChainEntry } from '../../activity/activity-chain';
import { fingerprintOf, logOfficeEvent, officeChainEntryOf } from '../../activity/office-log';
import type { AppContext } from '../../context/app-context';
import { inTransaction } from '../../db/open-database';
import type { AnchorChainCheck } from './check-anchors';

/**
 * What the office's check compares beyond the chains themselves (issue 39): what the database
 * holds now against what the office log and the office anchors say it held. An insider who
 * rewrites a table beneath SignDesk leaves these out of step:
 * - a contract whose log an office anchor holds is gone, and the office log records no deletion;
 * - a user's e-mail, or a webhook consumer's public key, is not the one the office log recorded
 *   last (each creation and change through SignDesk records its SHA-256 in the office log).
 */
export const IDENTITIES_RECORDED = 'identities.recorded';

const USER = /^\/api\/users\/(\d+)$/;
const WEBHOOK = /^\/api\/webhooks\/(\d+)$/;
const CONTRACT = /^\/api\/contracts\/(\d+)$/;

type Recorded = { sequence: number; fingerprint: string };

/** The e-mail and key fingerprints the office log recorded last, by user and consumer id. */
function recordedFingerprints(entries: readonly StoredChainEntry[]) {
  const emails = new Map<number, Recorded>();
  const keys = new Map<number, Recorded>();
  for (const entry of entries) {
    if (entry.event === IDENTITIES_RECORDED) {
      for (const [key, fingerprint] of Object.entries(entry.details)) {
        const [, kind, id] = /^(user|webhook)_(\d+)$/.exec(key) ?? [];
        if (kind) (kind === 'user' ? emails : keys).set(Number(id), { sequence: entry.sequence, fingerprint });
      }
      continue;
    }
    const email = entry.details.email_sha256;
    const user = USER.exec(entry.subject);
    if (user && email) emails.set(Number(user[1]), { sequence: entry.sequence, fingerprint: email });
    const key = entry.details.public_key_sha256;
    const webhook = WEBHOOK.exec(entry.subject);
    if (webhook && key) keys.set(Number(webhook[1]), { sequence: entry.sequence, fingerprint: key });
  }
  return { emails, keys };
}

/**
 * Every contract log an office anchor (as re-derived from its token) holds must still be there,
 * at least as long as the anchor held it, unless the office log records its deletion (a draft
 * deleted through SignDesk). The per-contract check sees a log cut short only when someone asks
 * for that contract; this sees a contract gone altogether.
 */
export function checkAnchoredContracts(
  anchorChain: AnchorChainCheck,
  officeEntries: readonly StoredChainEntry[],
  logLengths: ReadonlyMap<number, number>,
): ChainProblem[] {
  const deleted = new Set(officeEntries.filter((entry) => entry.event === 'contract.deleted').map((e) => e.subject));
  const held = new Map<string, { sequence: number; anchor: number; time: number }>();
  for (const anchor of anchorChain.anchors)
    for (const head of anchor.heads)
      if (CONTRACT.test(head.chain) && head.sequence >= (held.get(head.chain)?.sequence ?? 0))
        held.set(head.chain, { sequence: head.sequence, anchor: anchor.sequence, time: anchor.authorityTime });
  const problems: ChainProblem[] = [];
  for (const [chain, { sequence, anchor, time }] of held) {
    const length = logLengths.get(Number(CONTRACT.exec(chain)![1]));
    const by = `office anchor #${anchor} (timestamped by the authority at ${new Date(time).toISOString()}) holds its log through entry #${sequence}`;
    if (length === undefined && !deleted.has(chain))
      problems.push({
        sequence: 0,
        problem: `${chain} is gone, but ${by} and the office log records no deletion: the contract was deleted in the database, outside SignDesk`,
      });
    else if (length !== undefined && length < sequence)
      problems.push({
        sequence: 0,
        problem: `${chain} holds ${length} entries, but ${by}: entries were removed`,
      });
  }
  return problems;
}

/**
 * Every user's e-mail and every webhook consumer's public key must be the one the office log
 * recorded last (as its SHA-256): a value changed in the database, or a user or consumer the
 * office log never recorded, was written outside SignDesk.
 */
export function checkRecordedIdentities(
  officeEntries: readonly StoredChainEntry[],
  users: readonly { id: number; username: string; email: string }[],
  consumers: readonly { id: number; publicKey: Buffer }[],
): ChainProblem[] {
  const { emails, keys } = recordedFingerprints(officeEntries);
  const problems: ChainProblem[] = [];
  const compare = (recorded: Recorded | undefined, value: string | Uint8Array, what: string, field: string) => {
    if (!recorded)
      problems.push({
        sequence: 0,
        problem: `${what} is in no entry of the office log: it was added outside SignDesk`,
      });
    else if (recorded.fingerprint !== fingerprintOf(value))
      problems.push({
        sequence: recorded.sequence,
        problem: `${what}: its ${field} is not the one this entry recorded: it was changed in the database, outside SignDesk`,
      });
  };
  for (const user of users)
    compare(emails.get(user.id), user.email, `/api/users/${user.id} (${user.username})`, 'e-mail');
  for (const consumer of consumers)
    compare(keys.get(consumer.id), consumer.publicKey, `/api/webhooks/${consumer.id}`, 'public key');
  return problems;
}

/** Both checks over the database as it is now. */
export async function checkOfficeState(
  ctx: AppContext,
  anchorChain: AnchorChainCheck,
  officeEntries: readonly StoredChainEntry[],
): Promise<ChainProblem[]> {
  const repo = ctx.repos.officeEvidence;
  return [
    ...checkAnchoredContracts(anchorChain, officeEntries, await repo.contractLogLengths()),
    ...checkRecordedIdentities(officeEntries, await repo.liveUserEmails(), await repo.webhookPublicKeys()),
  ];
}

/**
 * The upgrade step (at every start and after a restore): an office log from before issue 39
 * recorded no e-mails or keys, so their fingerprints as they are now go into one entry
 * (`identities.recorded`). It is written once: once the office log holds any fingerprint, every
 * later user and consumer is recorded when made, and one the log never saw stays a problem.
 */
export async function recordIdentities(ctx: AppContext): Promise<void> {
  const repo = ctx.repos.officeEvidence;
  await inTransaction(ctx.db, async () => {
    const entries = (await repo.listOfficeLog()).map(officeChainEntryOf);
    const hasFingerprints = entries.some(
      (entry) =>
        entry.event === IDENTITIES_RECORDED ||
        entry.details.email_sha256 !== undefined ||
        entry.details.public_key_sha256 !== undefined,
    );
    if (hasFingerprints) return;
    const details: Record<string, string> = {};
    for (const user of await repo.liveUserEmails()) details[`user_${user.id}`] = fingerprintOf(user.email);
    for (const consumer of await repo.webhookPublicKeys())
      details[`webhook_${consumer.id}`] = fingerprintOf(consumer.publicKey);
    if (Object.keys(details).length === 0) return;
    await logOfficeEvent(ctx, { event: IDENTITIES_RECORDED, details });
    ctx.logger.info(
      { recorded: Object.keys(details).length },
      "office log: recorded the users' e-mails and the webhook consumers' keys as they are",
    );
  });
}
