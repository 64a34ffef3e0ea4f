import { createHash } from 'node:crypto';
import type { AppContext } from '../context/app-context';
import type { OfficeLogRow } from '../db/repos/office-evidence';
import {
  CHAIN_GENESIS,
  DETAIL_KEY,
  checkChain,
  hashEntry,
  type ChainCheck,
  type StoredChainEntry,
} from './activity-chain';
import { APPLIANCE_ORIGIN, type ActivityDetails, type RequestOrigin } from './log-activity';

/** The office log's chain, as anchors name it: hashed with the contract chains' algorithm under this name. */
export const OFFICE_CHAIN = '/api/office';

export type OfficeEventInput = Partial<RequestOrigin> & {
  /** e.g. user.created, token.revoked, settings.changed, seal_certificate.changed */
  event: string;
  subject?: string;
  userId?: number | null;
  /** What changed, never a secret (names of settings, not their values when those may hold one). */
  details?: ActivityDetails;
};

function detailsText(details: ActivityDetails = {}): string {
  const kept: Record<string, string> = {};
  for (const key of Object.keys(details).sort()) {
    const value = details[key];
    if (value === undefined || value === null) continue;
    if (!DETAIL_KEY.test(key)) throw new Error(`office log detail key ${key} is not a lower-case word`);
    kept[key] = String(value);
  }
  return JSON.stringify(kept);
}

/** What the hash covers, from a stored row. */
export function officeChainEntryOf(row: Omit<OfficeLogRow, 'id'>): StoredChainEntry {
  return {
    contract: OFFICE_CHAIN,
    sequence: row.sequence,
    recordedTime: new Date(row.createdAt).toISOString(),
    event: row.event,
    subject: row.subject,
    actor: row.userId === null ? '' : `/api/users/${row.userId}`,
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    details: JSON.parse(row.details) as Record<string, string>,
    previousHash: row.previousHash,
    hash: row.hash,
  };
}

/**
 * Writes one entry of the office log, chained to the last; call it inside the transaction of
 * the change it records, so that the change and its entry commit together.
 */
export async function logOfficeEvent(ctx: AppContext, input: OfficeEventInput): Promise<void> {
  const head = await ctx.repos.officeEvidence.officeHead();
  const origin = { ...APPLIANCE_ORIGIN, ...input };
  const row = {
    sequence: (head?.sequence ?? 0) + 1,
    event: input.event,
    subject: input.subject ?? '',
    userId: input.userId ?? null,
    userAgent: origin.userAgent,
    ipAddress: origin.ipAddress,
    createdAt: ctx.now(),
    details: detailsText(input.details),
    previousHash: head?.hash ?? CHAIN_GENESIS,
  };
  const hash = hashEntry(officeChainEntryOf({ ...row, hash: '' }));
  await ctx.repos.officeEvidence.insertOfficeEntry({ ...row, hash });
}

/**
 * What the office log records of a value the office's check compares with the database (a
 * user's e-mail, a webhook consumer's public key): its SHA-256 in hex, never the value itself,
 * so that the log, kept for good, holds no address.
 */
export const fingerprintOf = (value: string | Uint8Array): string =>
  createHash('sha256')
    .update(typeof value === 'string' ? Buffer.from(value, 'utf8') : value)
    .digest('hex');

/** Recomputes the office log's chain from the database. */
export async function checkOfficeChain(ctx: AppContext): Promise<{ check: ChainCheck; entries: StoredChainEntry[] }> {
  const entries = (await ctx.repos.officeEvidence.listOfficeLog()).map(officeChainEntryOf);
  return { check: checkChain(entries), entries };
}
