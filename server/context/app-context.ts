import type { Config } from '../config/config';
import type { DataDirLayout } from '../db/data-dir';
import type { Database } from '../db/database';
import type { Repos } from '../db/repos/index';
import type { RateLimiter } from './rate-limiter';
import type { Logger } from '../logging/logger';
import type { OutboxSignal } from './outbox-signal';
import type { AppSecret } from '../crypto/app-secret';
import type { KeyStore } from '../crypto/key-store';
import type { SigningIdentity } from '../crypto/signing-identity';
import type { WebhookRuntime } from './webhook-runtime';
import type { AdminState } from './admin-state';
import type { PdfSandbox } from '../pdf/sandbox/pdf-sandbox';
import type { SharedBufferPool } from '../core/shared-buffers';
import type { SearchPool } from '../db/search-pool';
import type { OutboundPolicy } from '../net/outbound-policy';
import type { AcmeRuntime } from './acme-runtime';
import type { ReachRuntime } from './reach-runtime';
import type { FileStore } from '../db/file-store';

/**
 * What every router and service is handed: made once in createServer, never global. Read-only
 * but for what a restore or a key import reloads in place (`repos`, `secret`, `seal`); the time
 * comes from the clock createServer was given, so tests move that clock, not the context.
 */
export type AppContext = {
  /** The server's own copy: publicBaseUrl and timeZone follow the admin's general settings. */
  readonly config: Config;
  readonly paths: DataDirLayout;
  /** Transactions (inTransaction(ctx.db, …)); which engine is behind them is server/db's business. */
  readonly db: Database;
  repos: Repos;
  /** Stored files kept in DATA_DIR/files (an upload's bytes, written ahead of its transaction). */
  readonly files: FileStore;
  /**
   * The office's keys (app secret, seal identity, webhook and settings seal keys, ACME): the
   * files of DATA_DIR/keys on SQLite, rows sealed with the master key on PostgreSQL. Not in a
   * route's view: what is read from them is (`secret`, `seal`, `webhooks`).
   */
  readonly keys: KeyStore;
  readonly logger: Logger;
  readonly rateLimiter: RateLimiter;
  readonly now: () => number;
  /**
   * The base of the office's own links (API `Link` headers, problem types, admin pages): the
   * office listener's http://HOST:PORT when PUBLIC_PORT splits the surfaces, else the public
   * base URL (PUBLIC_BASE_URL, or http://HOST:PORT once listening), as before the split.
   */
  readonly baseUrl: () => string;
  /** The base of the links handed to parties: PUBLIC_BASE_URL, else the party listener's URL, else baseUrl. */
  readonly partyBaseUrl: () => string;
  /** The party surface: its listener's URL, its certificate, the ACME challenge answers. */
  readonly reach: ReachRuntime;
  readonly timestamp: (epochMs: number) => string;
  readonly timestampOrNull: (epochMs: number | null | undefined) => string | null;
  /** Wakes the mail and SMS outbox worker (after enqueueing or a settings change). */
  readonly outbox: OutboxSignal;
  /** Wakes the scheduled-backup worker (after the schedule changed). */
  readonly backups: OutboxSignal;
  /** HMACs keyed by the appliance's own secret (signing-link CSRF tokens, verified-party cookies). */
  secret: AppSecret;
  /** The certificate and key that seal signed PDFs (made at first use; an office may import its own). */
  seal: { identity(): Promise<SigningIdentity>; replace(identity: SigningIdentity): void };
  /** Where the server may connect on a user's say (webhooks, SMTP, SMS gateway): HTTP clients and sockets checked at connect time. */
  readonly outbound: OutboundPolicy;
  /** Parsing and sealing of PDFs on worker threads, under limits. */
  readonly pdf: PdfSandbox;
  /** Shared memory that uploaded PDFs are read into, for the PDF sandbox to read in place (core/shared-buffers.ts). */
  readonly uploadMemory: SharedBufferPool;
  /** Contract searches on worker threads with their own read-only connections (the windows of `q` and `name`). */
  readonly search: SearchPool;
  /** Webhook consumers' signing keys and the webhook worker's wake-up. */
  readonly webhooks: WebhookRuntime;
  /** The admin UI's sign-in throttle, one-time sign-in links and the environment's defaults. */
  readonly admin: AdminState;
  /** The public listener's ACME certificate in force, the HTTP-01 answers under way, its job's wake-up. */
  readonly acme: AcmeRuntime;
};
