import { CLOCK_WARNING_SECONDS, type TTimestampSettings } from '../../../shared/api/timestamps';
import { SECRET_MASK, type SettingSource } from '../../../shared/api/messaging-settings';
import type { AppContext } from '../../context/app-context';
import { validationFailed } from '../../core/errors';
import { inTransaction } from '../../db/open-database';
import { maskUrlPassword } from '../../messages/messaging-settings';
import { TIMESTAMP_QUEUE } from './timestamp-queue';

const TSA_URL_KEY = 'timestamps.tsa_url';

/** The authority in force: a saved value wins over TSA_URL; undefined when neither is set. */
export function readTsaUrl(ctx: AppContext): { url: string | undefined; source: SettingSource | null } {
  const saved = ctx.repos.settings.get(TSA_URL_KEY);
  if (saved !== undefined) return { url: saved, source: 'settings' };
  return ctx.config.tsaUrl ? { url: ctx.config.tsaUrl, source: 'environment' } : { url: undefined, source: null };
}

/** The URL as logs and evidence show it: without a user or password. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

export const isClockOff = (offsetMs: number | null | undefined) =>
  offsetMs != null && Math.abs(offsetMs) > CLOCK_WARNING_SECONDS * 1000;

export function presentTimestampSettings(ctx: AppContext): TTimestampSettings {
  const { url, source } = readTsaUrl(ctx);
  const latest = ctx.repos.seals.latestTimestamped();
  return {
    tsa_url: maskUrlPassword(url),
    source,
    pending_count: ctx.repos.seals.countPending(),
    last_timestamp_time: ctx.timestampOrNull(latest?.timestampTime),
    last_clock_offset_seconds: latest?.clockOffsetMs == null ? null : Math.round(latest.clockOffsetMs / 1000),
    is_clock_off: isClockOff(latest?.clockOffsetMs),
  };
}

/**
 * Saves the authority (null: back to TSA_URL, if any). A URL sent back with the masked password
 * keeps the saved one. Contracts waiting for a timestamp are tried again at once.
 */
export function saveTsaUrl(ctx: AppContext, url: string | null | undefined): void {
  if (url === undefined) return;
  // Refused as written, as webhooks and SMTP are (the address is checked again at every connection).
  const refusal = url === null ? undefined : ctx.outbound.checkUrl(url);
  if (refusal) throw validationFailed([`tsa_url: ${refusal}`]);
  const now = ctx.now();
  inTransaction(ctx.db, () => {
    const kept = url === null ? null : keepMaskedPassword(url, readTsaUrl(ctx).url);
    ctx.repos.settings.write(TSA_URL_KEY, kept, now);
    for (const contractId of ctx.repos.seals.pendingContractIds())
      ctx.repos.jobs.requeue(TIMESTAMP_QUEUE, contractId, now);
  });
}

function keepMaskedPassword(given: string, current: string | undefined): string {
  try {
    const next = new URL(given);
    if (next.password !== SECRET_MASK || !current) return given;
    next.password = new URL(current).password;
    return next.href;
  } catch {
    return given;
  }
}
