import { formatTimestamp } from '../../shared/time';
import type { Config } from '../config/config';
import type { AppContext } from '../context/app-context';
import { systemClock, type Clock } from '../core/clock';
import { loadAppSecret } from '../crypto/app-secret';
import { createSeal } from '../context/office-keys';
import type { DataDirLayout } from '../db/data-dir';
import { sqliteOf, type Database } from '../db/database';
import { createRepoSearch } from '../db/repo-search';
import { createRepos } from '../db/repos';
import { RateLimiter } from '../context/rate-limiter';
import type { Logger } from '../logging/logger';
import { createOutboxSignal } from '../context/outbox-signal';
import { createWebhookRuntime } from '../context/webhook-runtime';
import { createPdfSandbox } from '../pdf/sandbox/pdf-sandbox';
import { createSharedBufferPool } from '../core/shared-buffers';
import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { createSearchPool, SEARCH_THREADS } from '../db/search-pool';
import { createOutboundPolicy } from '../net/outbound-policy';
import { createReachRuntime } from '../context/reach-runtime';
import { applySavedReach } from '../reach/reach-settings';
import { applySavedAcme } from '../reach/acme-settings';
import { createAdminState } from '../context/admin-state';
import { applyGeneralSettings } from '../settings/apply-general-settings';
import { sealSecretsAtRest } from '../messages/seal-at-rest';
import { upgradeEvidence } from '../evidence/upgrade-evidence';
import { createAcmeRuntime } from '../context/acme-runtime';
import { loadCertificate } from '../reach/acme-store';
import { createFileStore } from '../db/file-store';
import type { KeyStore } from '../crypto/key-store';

/** Upload slots (2 MiB each) kept for the next uploads once a burst of them is over. */
const UPLOAD_SLOTS_KEPT = 8;

/** The one place an AppContext is assembled, for the server and for the CLI alike. `config` is the caller's own copy. */
export async function createContext(parts: {
  config: Config;
  paths: DataDirLayout;
  db: Database;
  /** The office's keys (openStorage's: DATA_DIR/keys or the database's). */
  keys: KeyStore;
  logger: Logger;
  baseUrl: () => string;
  /** Default baseUrl: one surface serves offices and parties alike. */
  partyBaseUrl?: () => string;
  /** better-sqlite3's addon for another runtime, for the search threads' connections. */
  sqliteBinding?: string | undefined;
  /** The migrations the database was opened with (a restored backup is migrated with them). */
  migrationsFolder?: string | undefined;
  clock?: Clock | undefined;
}): Promise<AppContext> {
  const clock = parts.clock ?? systemClock;
  const { config, paths } = parts;
  const files = createFileStore({ db: parts.db, root: paths.root, filesDir: paths.files });
  const repos = createRepos(parts.db, files);
  const { keys } = parts;
  const secret = await loadAppSecret(keys);
  const certificate = await loadCertificate(keys);
  const ctx: AppContext = {
    config,
    paths,
    db: parts.db,
    logger: parts.logger,
    baseUrl: parts.baseUrl,
    partyBaseUrl: parts.partyBaseUrl ?? parts.baseUrl,
    reach: createReachRuntime(),
    repos,
    files,
    keys,
    rateLimiter: new RateLimiter(),
    now: () => clock.now(),
    timestamp: (epochMs) => formatTimestamp(epochMs, config.timeZone),
    timestampOrNull: (epochMs) => (epochMs == null ? null : formatTimestamp(epochMs, config.timeZone)),
    outbox: createOutboxSignal(),
    pdf: createPdfSandbox(),
    uploadMemory: createSharedBufferPool({ slotBytes: MAX_UPLOAD_BYTES, maxIdleSlots: UPLOAD_SLOTS_KEPT }),
    search:
      parts.db.dialect === 'sqlite'
        ? createSearchPool({
            file: paths.database,
            db: sqliteOf(parts.db),
            size: SEARCH_THREADS,
            nativeBinding: parts.sqliteBinding,
            onGiveUp: (reason) => parts.logger.warn({ reason }, 'contract searches run on the request thread'),
          })
        : createRepoSearch(() => ctx.repos.contracts),
    outbound: createOutboundPolicy(),
    backups: createOutboxSignal(),
    webhooks: createWebhookRuntime(keys),
    secret,
    admin: createAdminState(
      { publicBaseUrl: config.publicBaseUrl, timeZone: config.timeZone },
      parts.migrationsFolder,
      parts.sqliteBinding,
    ),
    seal: undefined as unknown as AppContext['seal'],
    acme: createAcmeRuntime(certificate),
  };
  ctx.seal = createSeal(ctx);
  // What an older version kept in clear is sealed before anything reads it.
  await sealSecretsAtRest(ctx);
  // The admin's stored settings (public base URL, time zone) take over from the environment's.
  await applyGeneralSettings(ctx);
  // A saved PUBLIC_PORT/PUBLIC_HOST (the settings page) wins over the environment's.
  await applySavedReach(ctx);
  await applySavedAcme(ctx);
  // Entries and seals from before the hash chain get theirs (docs/decisions.md, "Evidence").
  await upgradeEvidence(ctx);
  return ctx;
}
