import type { ReadContext } from '../../context/read-context';
import { CLOCK_WARNING_SECONDS, type TTimestampSettings } from '../../../shared/api/timestamps';
import { SECRET_MASK, type SettingSource } from '../../../shared/api/messaging-settings';
import type { AppContext } from '../../context/app-context';
import { validationFailed } from '../../core/errors';
import { isSealed } from '../../crypto/app-secret';
import { inTransaction } from '../../db/open-database';
import { maskUrlPassword } from '../../messages/messaging-settings';
import { TIMESTAMP_QUEUE } from './timestamp-queue';
import { readClockCheck } from './clock-check';
import { requestAnchor } from '../anchors/anchor-queue';
import { logOfficeEvent } from '../../activity/office-log';

const TSA_URL_KEY = 'timestamps.tsa_url';

/**
 * The saved authority, opened: it is stored sealed under the app secret, as the SMTP URL is,
 * because a user:password in it is an account's credentials. One saved in clear by an older
 * version is read as it is (and sealed at the next start, sealTsaUrlAtRest); one sealed under
 * another installation's key counts as not saved.
 */
async function readSavedTsaUrl(ctx: ReadContext): Promise<string | undefined> {
  const stored = await ctx.repos.settings.get(TSA_URL_KEY);
  if (stored === undefined || !isSealed(stored)) return stored;
  const url = ctx.secret.open('setting', stored);
  if (url === undefined)
    ctx.logger.warn({ key: TSA_URL_KEY }, "a saved setting is sealed under another installation's key and is ignored");
  return url;
}

/** The authority in force: a saved value wins over TSA_URL; undefined when neither is set. */
export async function readTsaUrl(ctx: ReadContext): Promise<{ url: string | undefined; source: SettingSource | null }> {
  const saved = await readSavedTsaUrl(ctx);
  if (saved !== undefined) return { url: saved, source: 'settings' };
  return ctx.config.tsaUrl ? { url: ctx.config.tsaUrl, source: 'environment' } : { url: undefined, source: null };
}

/**
 * The URL as the PDF, the log, the evidence and the database show it: its origin and path
 * only. A user:password goes as Basic authentication and a query string may carry an account's
 * key, so neither is ever written anywhere but the sealed setting (or the environment).
 */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * Start-up step for databases from before the authority's URL was sealed: a URL saved in clear
 * is sealed, and seal records that kept the URL asked with its credentials keep it without
 * them. Cheap when done (one setting read, one indexed-free scan of the few URLs with an @ or ?).
 */
export async function sealTsaUrlAtRest(ctx: AppContext): Promise<void> {
  const stored = await ctx.repos.settings.get(TSA_URL_KEY);
  const rows = await ctx.repos.seals.listTsaUrlsWithCredentials();
  const needsSealing = stored !== undefined && !isSealed(stored);
  if (!needsSealing && rows.length === 0) return;
  await inTransaction(ctx.db, async () => {
    if (needsSealing) await ctx.repos.settings.set(TSA_URL_KEY, ctx.secret.seal('setting', stored), ctx.now());
    for (const row of rows) await ctx.repos.seals.setTsaUrl(row.id, withoutCredentials(row.url));
  });
  ctx.logger.info(
    { setting: needsSealing, seals: rows.length },
    "timestamps: the authority's credentials kept in clear by an older version are now sealed or removed",
  );
}

export const isClockOff = (offsetMs: number | null | undefined) =>
  offsetMs != null && Math.abs(offsetMs) > CLOCK_WARNING_SECONDS * 1000;

export async function presentTimestampSettings(ctx: ReadContext): Promise<TTimestampSettings> {
  const { url, source } = await readTsaUrl(ctx);
  // The latest comparison of clocks, made at every timestamp; a seal's if none was recorded yet.
  const seal = await ctx.repos.seals.latestTimestamped();
  const check = await readClockCheck(ctx);
  const latest =
    check ??
    (seal?.timestampTime != null ? { authorityTime: seal.timestampTime, offsetMs: seal.clockOffsetMs } : undefined);
  return {
    tsa_url: maskUrlPassword(url),
    source,
    pending_count: await ctx.repos.seals.countPending(),
    last_timestamp_time: ctx.timestampOrNull(latest?.authorityTime),
    last_clock_offset_seconds: latest?.offsetMs == null ? null : Math.round(latest.offsetMs / 1000),
    is_clock_off: isClockOff(latest?.offsetMs),
  };
}

/**
 * Saves the authority (null: back to TSA_URL, if any). A URL sent back with the masked password
 * keeps the saved one. Contracts waiting for a timestamp are tried again at once.
 */
export async function saveTsaUrl(ctx: AppContext, url: string | null | undefined): Promise<void> {
  if (url === undefined) return;
  // Refused as written, as webhooks and SMTP are (the address is checked again at every connection).
  const refusal = url === null ? undefined : ctx.outbound.checkUrl(url);
  if (refusal) throw validationFailed([`tsa_url: ${refusal}`]);
  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    const kept = url === null ? null : keepMaskedPassword(url, (await readTsaUrl(ctx)).url);
    await ctx.repos.settings.write(TSA_URL_KEY, kept === null ? null : ctx.secret.seal('setting', kept), now);
    for (const contractId of await ctx.repos.seals.pendingContractIds())
      await ctx.repos.jobs.requeue(TIMESTAMP_QUEUE, contractId, now);
    await logOfficeEvent(ctx, {
      event: 'settings.changed',
      subject: '/api/settings/timestamps',
      details: { fields: 'tsa_url', tsa_url: kept === null ? null : withoutCredentials(kept) },
    });
    // A new authority anchors the office at once (the first anchor, when there was none).
    await requestAnchor(ctx, now);
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
