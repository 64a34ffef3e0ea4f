import { partyPath } from '../../shared/api/paths';
import type { Request } from 'express';
import { MAX_STRING_LENGTH } from '../../shared/constants';
import type { AppContext } from '../context/app-context';
import type { ChainedActivity } from '../db/repos/activity-log';
import { WEBHOOK_EVENT_OF_ACTIVITY } from '../webhooks/activity-webhooks';
import { recordEvent } from '../webhooks/record-event';
import { CHAIN_GENESIS, DETAIL_KEY, hashEntry } from './activity-chain';

/** Who made a change, as the activity log shows it; the appliance's own entries carry empty strings. */
export type RequestOrigin = { userAgent: string; ipAddress: string };

export const APPLIANCE_ORIGIN: RequestOrigin = { userAgent: '', ipAddress: '' };

export function requestOrigin(req: Request): RequestOrigin {
  const agent = req.headers['user-agent'];
  const address = req.ip ?? req.socket.remoteAddress ?? '';
  return {
    userAgent: (typeof agent === 'string' ? agent : '').slice(0, MAX_STRING_LENGTH),
    // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d; people know it as a.b.c.d.
    ipAddress: address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, ''),
  };
}

/** What an event says beyond who, when and where; values are kept as text. */
export type ActivityDetails = Record<string, string | number | boolean | null | undefined>;

export type ActivityInput = RequestOrigin & {
  contractId: number;
  /** e.g. contract.created, party.added, annotation.removed, contract.sent */
  event: string;
  /** The resource the entry is about (a party, annotation or attachment path). */
  subject?: string;
  /** The acting user, when a user (not a party or the appliance) made the change. */
  userId?: number | null;
  /** The acting party, when a party did it from its link. */
  partyId?: number | null;
  /** e.g. the channel of an invitation, the name a party signed with, the cause of a rejection. */
  details?: ActivityDetails;
  /** When it happened; default now. */
  time?: number;
};

/**
 * Who acted, as a path: the user, else the party acting from its link, else empty (the
 * appliance). The API shows it as `actor` and the chain's hash covers it.
 */
export function actorPath(row: { contractId: number; userId: number | null; partyId: number | null }): string {
  if (row.userId !== null) return `/api/users/${row.userId}`;
  if (row.partyId !== null) return partyPath({ contractId: row.contractId, id: row.partyId });
  return '';
}

/** A string that every JSON library writes and reads alike: lone surrogates become U+FFFD. */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

function detailsText(details: ActivityDetails = {}): string {
  const kept: Record<string, string> = {};
  for (const key of Object.keys(details).sort()) {
    const value = details[key];
    if (value === undefined || value === null) continue;
    if (!DETAIL_KEY.test(key)) throw new Error(`activity detail key ${key} is not a lower-case word`);
    kept[key] = wellFormed(String(value)).slice(0, MAX_STRING_LENGTH);
  }
  return JSON.stringify(kept);
}

/**
 * The row an entry becomes when it follows `previous` in its contract's chain: its sequence,
 * the hash of the entry before, and its own hash (server/evidence/activity-chain.ts).
 */
export function chainActivity(
  entry: ActivityInput,
  time: number,
  previous: { sequence: number; hash: string } | undefined,
): ChainedActivity {
  const row = {
    contractId: entry.contractId,
    event: entry.event,
    subject: entry.subject ?? '',
    userId: entry.userId ?? null,
    partyId: entry.partyId ?? null,
    userAgent: wellFormed(entry.userAgent),
    ipAddress: wellFormed(entry.ipAddress),
    createdAt: time,
    sequence: (previous?.sequence ?? 0) + 1,
    details: detailsText(entry.details),
    previousHash: previous?.hash ?? CHAIN_GENESIS,
  };
  return { ...row, hash: hashEntry(chainEntryOf(row)) };
}

/** What the hash covers, from a stored row: the fields the API's activity log shows. */
export function chainEntryOf(row: Omit<ChainedActivity, 'hash'>) {
  return {
    contract: `/api/contracts/${row.contractId}`,
    sequence: row.sequence,
    recordedTime: new Date(row.createdAt).toISOString(),
    event: row.event,
    subject: row.subject,
    actor: actorPath(row),
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    details: JSON.parse(row.details) as Record<string, string>,
    previousHash: row.previousHash,
  };
}

/**
 * The detail that names the party an entry is about (its subject, and its actor when the party
 * acted from its link) as that party stood when the entry was written: a party row becomes
 * someone else on a delegation or a correction, and the entry must keep naming who acted then.
 * It is in `details`, so the chain's hash covers it and entries written before it verify as ever.
 */
export const PARTY_NAME_DETAIL = 'party_name';

const PARTY_SUBJECT = /^\/api\/contracts\/(\d+)\/parties\/(\d+)$/;

/** The party an entry's subject names, if it names one of its own contract's parties. */
export function subjectPartyId(entry: { contractId: number; subject?: string }): number | undefined {
  const match = PARTY_SUBJECT.exec(entry.subject ?? '');
  return match && Number(match[1]) === entry.contractId ? Number(match[2]) : undefined;
}

/** The entry with the name of the party it is about, unless it carries one already (or names no party). */
async function withPartyName(ctx: AppContext, entry: ActivityInput): Promise<ActivityInput> {
  const partyId = subjectPartyId(entry);
  if (partyId === undefined || entry.details?.[PARTY_NAME_DETAIL] != null) return entry;
  const party = await ctx.repos.parties.findById(partyId);
  if (!party || party.contractId !== entry.contractId) return entry;
  return { ...entry, details: { ...entry.details, [PARTY_NAME_DETAIL]: party.name } };
}

/**
 * Writes one activity-log entry, chained to the contract's last one; call it inside the
 * transaction of the change it records (the IMMEDIATE transaction keeps the chain in order).
 * The one door to the log; an entry that an opt-in webhook event follows raises it here too,
 * and the contract's updated_at moves to the entry's time. An entry about a party names it as
 * it is now (PARTY_NAME_DETAIL): log an act before the change that makes the party someone else,
 * or give the name.
 */
export async function logActivity(ctx: AppContext, given: ActivityInput): Promise<ChainedActivity> {
  const entry = await withPartyName(ctx, given);
  const row = chainActivity(entry, entry.time ?? ctx.now(), await ctx.repos.activity.head(entry.contractId));
  await ctx.repos.activity.insert(row);
  // Whatever the log records changed the contract: updated_time (and updated_since) follow it.
  await ctx.repos.contracts.touch(entry.contractId, row.createdAt);
  const webhookEvent = WEBHOOK_EVENT_OF_ACTIVITY[entry.event];
  if (webhookEvent) {
    const isAboutParty = entry.event.startsWith('party.') && row.subject !== '';
    await recordEvent(ctx, webhookEvent, {
      id: `/api/contracts/${entry.contractId}`,
      ...(isAboutParty
        ? { party: row.subject, partyName: (JSON.parse(row.details) as Record<string, string>)[PARTY_NAME_DETAIL] }
        : {}),
    });
  }
  return row;
}
