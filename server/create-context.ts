import { formatTimestamp } from '../shared/time';
import type { Config } from './config/config';
import type { AppContext } from './context';
import { loadAppSecret } from './crypto/app-secret';
import { loadSigningIdentity, type SigningIdentity } from './crypto/signing-identity';
import type { DataDirLayout } from './db/data-dir';
import type { Db } from './db/open-database';
import { createRepos } from './db/repos';
import { RateLimiter } from './http/rate-limiter';
import type { Logger } from './logging/logger';
import { createOutboxSignal } from './outbox/outbox-signal';
import { createWebhookKeyring } from './crypto/webhook-keys';
import { createWebhookRuntime } from './webhooks/runtime';
import { createPdfSandbox } from './pdf/sandbox/pdf-sandbox';
import { createOutboundPolicy } from './net/outbound-policy';
import { createAdminState } from './services/sessions/admin-state';
import { applyGeneralSettings } from './services/settings/apply-general-settings';
import { sealSecretsAtRest } from './services/secrets/seal-at-rest';
import { upgradeEvidence } from './evidence/upgrade-evidence';

/** The one place an AppContext is assembled, for the server and for the CLI alike. `config` is the caller's own copy. */
export function createContext(parts: {
  config: Config;
  paths: DataDirLayout;
  db: Db;
  logger: Logger;
  baseUrl: () => string;
  /** The migrations the database was opened with (a restored backup is migrated with them). */
  migrationsFolder?: string | undefined;
}): AppContext {
  const { config, paths } = parts;
  const repos = createRepos(parts.db);
  const ctx: AppContext = {
    config,
    paths,
    db: parts.db,
    logger: parts.logger,
    baseUrl: parts.baseUrl,
    repos,
    rateLimiter: new RateLimiter(),
    now: () => Date.now(),
    timestamp: (epochMs) => formatTimestamp(epochMs, config.timeZone),
    timestampOrNull: (epochMs) => (epochMs == null ? null : formatTimestamp(epochMs, config.timeZone)),
    outbox: createOutboxSignal(),
    pdf: createPdfSandbox(),
    outbound: createOutboundPolicy(),
    backups: createOutboxSignal(),
    webhooks: createWebhookRuntime(paths.keys),
    secret: loadAppSecret(paths.keys),
    admin: createAdminState({ publicBaseUrl: config.publicBaseUrl, timeZone: config.timeZone }, parts.migrationsFolder),
    seal: undefined as unknown as AppContext['seal'],
  };
  ctx.seal = createSeal(ctx);
  // What an older version kept in clear is sealed before anything reads it.
  sealSecretsAtRest(ctx);
  // The admin's stored settings (public base URL, time zone) take over from the environment's.
  applyGeneralSettings(ctx);
  // Entries and seals from before the hash chain get theirs (docs/decisions.md, "Evidence").
  upgradeEvidence(ctx);
  return ctx;
}

/** The seal identity, read (or made) on first use: a certificate is minted only when a contract is first signed. */
function createSeal(ctx: AppContext): AppContext['seal'] {
  let identity: SigningIdentity | undefined;
  return {
    identity: () => (identity ??= loadSigningIdentity(ctx.paths.keys, { officeName: ctx.repos.office.get(ctx.now()).name || undefined })),
    replace: (next) => {
      identity = next;
    },
  };
}

/**
 * After DATA_DIR/keys was replaced (a restored backup): everything held from those files is read
 * again. Whatever comes to be kept from DATA_DIR/keys must be reloaded here too.
 */
export function reloadKeys(ctx: AppContext): void {
  ctx.secret = loadAppSecret(ctx.paths.keys);
  ctx.webhooks.keyring = createWebhookKeyring(ctx.paths.keys);
  ctx.seal = createSeal(ctx);
}
