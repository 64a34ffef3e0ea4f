import type { ReadRepos } from '../db/repos/read-view';
import type { ReadContext } from '../context/read-context';
import type { ReachMode, TReachSettings, TReachSettingsUpdate } from '../../shared/api/reach';
import { linkReachOf } from '../../shared/api/reach';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { validationFailed } from '../core/errors';
import type { CertificateState } from '../crypto/certificate-source';

const PORT_KEY = 'reach.public_port';
const HOST_KEY = 'reach.public_host';

/** The saved PUBLIC_PORT and PUBLIC_HOST (the settings page), if any. */
export async function readSavedReach(
  repos: Pick<ReadRepos, 'settings'>,
): Promise<{ port: number | undefined; host: string | undefined }> {
  const port = await repos.settings.get(PORT_KEY);
  const host = await repos.settings.get(HOST_KEY);
  return { port: port === undefined ? undefined : Number(port), host };
}

/**
 * At start, before listening: saved values win over PUBLIC_PORT and PUBLIC_HOST, as saved SMTP
 * and TSA settings win over theirs. The desktop app has no environment to set, so this is its
 * way to open the party surface.
 */
export async function applySavedReach(ctx: AppContext): Promise<void> {
  const saved = await readSavedReach(ctx.repos);
  const { config } = ctx;
  ctx.reach.environment = { port: config.publicPort, host: config.publicHost };
  if (saved.port !== undefined) config.publicPort = saved.port;
  if (saved.host !== undefined) config.publicHost = saved.host;
}

/** Saves the party listener's port and host for the next start (null: back to the environment's). */
export async function saveReach(ctx: AppContext, update: TReachSettingsUpdate): Promise<void> {
  const officePort = ctx.reach.officePort ?? ctx.config.port;
  if (update.public_port != null && update.public_port === officePort)
    throw validationFailed([`public_port: must differ from the office's port (${officePort})`]);
  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    if (update.public_port !== undefined)
      await ctx.repos.settings.write(PORT_KEY, update.public_port === null ? null : String(update.public_port), now);
    if (update.public_host !== undefined) await ctx.repos.settings.write(HOST_KEY, update.public_host, now);
  });
}

/** The mode the admin reads (shared/api/reach.ts). */
export function reachModeOf(ctx: ReadContext): ReachMode {
  const source = ctx.reach.certificate;
  if (source) return source.mode;
  if (ctx.config.trustedProxies.length > 0) return 'behind-proxy';
  return ctx.reach.listenUrl === undefined ? 'off' : 'plain-http';
}

function presentCertificate(ctx: ReadContext, state: CertificateState): TReachSettings['certificate'] {
  const at = (iso: string | null) => (iso === null ? null : ctx.timestamp(Date.parse(iso)));
  return {
    subject: state.subject,
    issuer: state.issuer,
    valid_from: at(state.validFrom),
    valid_to: at(state.validTo),
    names: state.names,
    fingerprint_sha256: state.fingerprint256,
    loaded_time: ctx.timestampOrNull(state.loadedAt),
    last_error: state.lastError,
    last_error_time: ctx.timestampOrNull(state.lastErrorAt),
  };
}

export async function presentReach(ctx: ReadContext): Promise<TReachSettings> {
  const saved = await readSavedReach(ctx.repos);
  const nextPort = saved.port ?? ctx.reach.environment.port;
  const nextHost = saved.host ?? ctx.reach.environment.host;
  const listening = ctx.reach.listenUrl !== undefined;
  const base = ctx.partyBaseUrl();
  return {
    mode: reachModeOf(ctx),
    public_base_url: base,
    link_reach: linkReachOf(base),
    public_listen_url: ctx.reach.listenUrl ?? null,
    public_port: nextPort ?? null,
    public_host: nextHost,
    source: saved.port !== undefined ? 'settings' : ctx.reach.environment.port !== undefined ? 'environment' : null,
    // What the next start will use, against what this one does.
    is_restart_needed:
      nextPort !== (listening ? ctx.config.publicPort : undefined) ||
      (nextPort !== undefined && nextHost !== ctx.config.publicHost),
    listener_error: ctx.reach.listenerError ?? null,
    trusted_proxies: ctx.config.trustedProxies,
    certificate: ctx.reach.certificate ? presentCertificate(ctx, ctx.reach.certificate.describe()) : null,
  };
}
