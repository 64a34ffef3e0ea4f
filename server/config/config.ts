import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_TIME_ZONE } from '../../shared/constants';
import { isHttpUrl, isMailFrom, isSmtpUrl } from '../../shared/api/messaging-settings';
import { isValidTimeZone } from '../../shared/time';
import { isDnsName } from '../../shared/api/acme';
import { defaultDataDirSegments } from '../../shared/data-dir';

const DEFAULT_PORT = 8750;
/** 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: the last attempt 75 h 35 min after the event. */
export const DEFAULT_RETRY_SCHEDULE_S: readonly number[] = [300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
/** 30 s, 2 min, 10 min, 1 h, 4 h, 8 h, 12 h, 24 h: a temporary failure is given up after about two days. */
const DEFAULT_OUTBOX_RETRY_SCHEDULE_S = [30, 120, 600, 3600, 14400, 28800, 43200, 86400];

/** Let's Encrypt's production directory: the ACME CA used when ACME_DOMAIN is set and no other is named. */
export const LETS_ENCRYPT_DIRECTORY_URL = 'https://acme-v02.api.letsencrypt.org/directory';

/** 30 s, 1, 2, 5, 10, 30 min, then hourly for as long as it takes. */
const DEFAULT_TSA_RETRY_SCHEDULE_S = [30, 60, 120, 300, 600, 1800, 3600];

const secondsList = z
  .string()
  .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'must be comma-separated seconds')
  .transform((text) => text.split(',').map(Number));

function splitList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Express's `trust proxy` names of whole ranges, besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One TRUSTED_PROXIES entry: an IPv4 or IPv6 address, a CIDR of one, or a range name. */
export function isProxyEntry(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address = '', prefix, extra] = item.split('/');
  if (extra !== undefined) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  // A /0 trusts every peer: any client could then write the address the audit trail records.
  return Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.pathname.length > 1;
  } catch {
    return false;
  }
}

/** The environment variables (README, "Configuration"), validated once at start-up. */
const ZEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(DEFAULT_PORT),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .refine(isPostgresUrl, 'must be a postgres:// or postgresql:// URL (unset: SQLite in DATA_DIR)')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(1000).default(10),
  SIGNDESK_MASTER_KEY: z.string().min(1).optional(),
  SIGNDESK_MASTER_KEY_FILE: z.string().min(1).optional(),
  PUBLIC_BASE_URL: z.url().optional(),
  PUBLIC_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  PUBLIC_HOST: z.string().min(1).optional(),
  PUBLIC_TLS_CERT: z.string().min(1).optional(),
  PUBLIC_TLS_KEY: z.string().min(1).optional(),
  PUBLIC_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  PUBLIC_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(32),
  TRUSTED_PROXIES: z
    .string()
    .transform(splitList)
    .refine(
      (items) => items.every(isProxyEntry),
      'must be IP addresses or CIDRs (10.0.0.0/8, fd00::/8), comma-separated',
    )
    .optional(),
  SMTP_URL: z.string().refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL with a host').optional(),
  MAIL_FROM: z
    .string()
    .refine(isMailFrom, 'must be an e-mail address, optionally with a name: Office <office@example.com>')
    .optional(),
  SMS_GATEWAY_URL: z.string().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
  TZ: z.string().refine(isValidTimeZone, 'must be an IANA time zone').default(DEFAULT_TIME_ZONE),
  WEBHOOK_RETRY_SCHEDULE_S: secondsList.optional(),
  WEBHOOK_FIRST_DELAY_S: z.coerce.number().min(0).default(2),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  OUTBOX_RETRY_SCHEDULE_S: secondsList.optional(),
  OUTBOX_TIMEOUT_MS: z.coerce.number().int().min(1).default(15_000),
  REMINDER_DAY_S: z.coerce.number().positive().default(86_400),
  LOW_DISK_MB: z.coerce.number().int().min(0).default(2048),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  TSA_URL: z
    .string()
    .refine(isHttpUrl, 'must be an http:// or https:// URL of an RFC 3161 timestamp authority')
    .optional(),
  TSA_RETRY_SCHEDULE_S: secondsList.optional(),
  ACME_DOMAIN: z.string().refine(isDnsName, 'must be a DNS name').optional(),
  ACME_EMAIL: z.email().optional(),
  ACME_DIRECTORY_URL: z.url({ protocol: /^https$/ }).default(LETS_ENCRYPT_DIRECTORY_URL),
  ACME_CA_FILE: z.string().min(1).optional(),
  ACME_HTTP_PORT: z.coerce.number().int().min(0).max(65_535).default(80),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /**
   * Where the office's data lives: SQLite in DATA_DIR (the default), or the PostgreSQL database
   * of DATABASE_URL, which several instances may share. `masterKey` seals the keys kept in
   * PostgreSQL (the master key itself, or the file holding it: SIGNDESK_MASTER_KEY(_FILE)).
   */
  database:
    | { kind: 'sqlite' }
    | { kind: 'postgres'; url: string; poolMax: number; masterKey: { value?: string; file?: string } };
  /**
   * Base of every link handed to a party; undefined means the public listener's URL when
   * PUBLIC_PORT is set, else `http://HOST:PORT` once the port is known. Without PUBLIC_PORT it is
   * also the base of the API's own links (docs/decisions.md, "Reach").
   */
  publicBaseUrl: string | undefined;
  /** The party surface's own listener (docs/reach.md); undefined: one listener serves everything. */
  publicPort: number | undefined;
  /** Where the party surface listens; `0.0.0.0` unless set. */
  publicHost: string;
  /** The office's own certificate and key for the party surface (PEM files, reloaded when they change). */
  publicTlsCert: string | undefined;
  publicTlsKey: string | undefined;
  /**
   * Caps on the connections the party listener (and the ACME HTTP-01 listener) hold open: in
   * all (undefined: 4,096, or a quarter of the process's file handles when that is less) and
   * per client address or IPv6 /64 (trusted proxies are not counted per address).
   */
  publicConnections: { total: number | undefined; perAddress: number };
  /** Peers whose X-Forwarded-For/-Proto/-Host are believed (addresses, CIDRs); none by default. */
  trustedProxies: string[];
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  smsGatewayUrl: string | undefined;
  timeZone: string;
  webhookRetryScheduleS: number[];
  webhookFirstDelayS: number;
  webhookTimeoutMs: number;
  /** Delays before the retries of a temporarily failed mail or SMS; its length bounds the attempts. */
  outboxRetryScheduleS: number[];
  /** Connect and greeting timeout of SMTP, whole-request timeout of the SMS gateway. */
  outboxTimeoutMs: number;
  /** The length of a "day" of reminder and expiry-warning schedules; tests shrink it to seconds. */
  reminderDayMs: number;
  /** Below this many free bytes on the data folder's disk the admin UI warns on every page (0: never). */
  lowDiskBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** RFC 3161 timestamp authority; none by default (signing times are then only this PC's clock's word). */
  tsaUrl: string | undefined;
  /** Delays between attempts to timestamp a signed PDF whose authority did not answer; the last one repeats. */
  tsaRetryScheduleS: number[];
  /**
   * The public listener's own certificate from an ACME CA (docs/reach.md): on when `domain`
   * is set. `caFile` is a PEM bundle trusted for the CA's directory besides the system's roots
   * (a private ACME CA); `httpPort` is where the HTTP-01 challenges are answered (0: any free port).
   */
  acme: {
    domain: string | undefined;
    email: string | undefined;
    directoryUrl: string;
    caFile: string | undefined;
    httpPort: number;
  };
};

export class ConfigError extends Error {}

/** The OS's per-user application-data folder for SignDesk (the shell's rule too: shared/data-dir.ts). */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: Record<string, string | undefined> = process.env,
  home = os.homedir(),
): string {
  return path.join(...defaultDataDirSegments(platform, env, home));
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ZEnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if ((e.PUBLIC_TLS_CERT === undefined) !== (e.PUBLIC_TLS_KEY === undefined)) {
    throw new ConfigError('Invalid configuration:\n  PUBLIC_TLS_CERT and PUBLIC_TLS_KEY: set both or neither');
  }
  if (e.ACME_DOMAIN !== undefined && e.PUBLIC_TLS_CERT !== undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  ACME_DOMAIN and PUBLIC_TLS_CERT: choose one source of the certificate (the CA, or your files)',
    );
  }
  if (e.ACME_DOMAIN !== undefined && e.ACME_HTTP_PORT !== 0 && [e.PORT, e.PUBLIC_PORT].includes(e.ACME_HTTP_PORT)) {
    throw new ConfigError(
      'Invalid configuration:\n  ACME_HTTP_PORT: must differ from PORT and PUBLIC_PORT (it answers the CA in plain HTTP)',
    );
  }
  if (e.PUBLIC_PORT !== undefined && e.PUBLIC_PORT !== 0 && e.PUBLIC_PORT === e.PORT) {
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_PORT: must differ from PORT (the office and the parties each have their own listener)',
    );
  }
  if (e.SIGNDESK_MASTER_KEY !== undefined && e.SIGNDESK_MASTER_KEY_FILE !== undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  SIGNDESK_MASTER_KEY and SIGNDESK_MASTER_KEY_FILE: give the master key one way, not both',
    );
  }
  if (e.PUBLIC_TLS_CERT !== undefined && e.PUBLIC_PORT === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_TLS_CERT: serves the party surface, so PUBLIC_PORT must be set too',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR?.trim() || defaultDataDir(process.platform, env)),
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          poolMax: e.DATABASE_POOL_MAX,
          masterKey: {
            ...(e.SIGNDESK_MASTER_KEY ? { value: e.SIGNDESK_MASTER_KEY } : {}),
            ...(e.SIGNDESK_MASTER_KEY_FILE ? { file: path.resolve(e.SIGNDESK_MASTER_KEY_FILE) } : {}),
          },
        }
      : { kind: 'sqlite' },
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    publicPort: e.PUBLIC_PORT,
    publicHost: e.PUBLIC_HOST ?? '0.0.0.0',
    publicTlsCert: e.PUBLIC_TLS_CERT && path.resolve(e.PUBLIC_TLS_CERT),
    publicTlsKey: e.PUBLIC_TLS_KEY && path.resolve(e.PUBLIC_TLS_KEY),
    publicConnections: { total: e.PUBLIC_MAX_CONNECTIONS, perAddress: e.PUBLIC_MAX_CONNECTIONS_PER_ADDRESS },
    trustedProxies: e.TRUSTED_PROXIES ?? [],
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    smsGatewayUrl: e.SMS_GATEWAY_URL,
    timeZone: e.TZ,
    webhookRetryScheduleS: e.WEBHOOK_RETRY_SCHEDULE_S ?? [...DEFAULT_RETRY_SCHEDULE_S],
    webhookFirstDelayS: e.WEBHOOK_FIRST_DELAY_S,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    outboxRetryScheduleS: e.OUTBOX_RETRY_SCHEDULE_S ?? DEFAULT_OUTBOX_RETRY_SCHEDULE_S,
    outboxTimeoutMs: e.OUTBOX_TIMEOUT_MS,
    reminderDayMs: e.REMINDER_DAY_S * 1000,
    lowDiskBytes: e.LOW_DISK_MB * 1024 * 1024,
    logLevel: e.LOG_LEVEL,
    tsaUrl: e.TSA_URL,
    tsaRetryScheduleS: e.TSA_RETRY_SCHEDULE_S ?? DEFAULT_TSA_RETRY_SCHEDULE_S,
    acme: {
      domain: e.ACME_DOMAIN?.toLowerCase(),
      email: e.ACME_EMAIL,
      directoryUrl: e.ACME_DIRECTORY_URL,
      caFile: e.ACME_CA_FILE,
      httpPort: e.ACME_HTTP_PORT,
    },
  };
}
