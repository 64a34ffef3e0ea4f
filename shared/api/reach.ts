import { z } from 'zod';
import { ZTimestampSchema } from './common';
import { SETTING_SOURCES } from './messaging-settings';

/**
 * How parties reach the party surface (docs/reach.md):
 * - `off`: no PUBLIC_PORT; one listener serves the office and parties alike;
 * - `plain-http`: the party listener speaks plain HTTP and no proxy is trusted (a LAN, or a
 *   tunnel that brings its own HTTPS);
 * - `pem-files`: HTTPS with the office's certificate files (PUBLIC_TLS_CERT, PUBLIC_TLS_KEY);
 * - `acme`: HTTPS with the appliance's own certificate from an ACME CA (Let's Encrypt);
 * - `behind-proxy`: a reverse proxy (TRUSTED_PROXIES) terminates HTTPS in front.
 */
export const REACH_MODES = ['off', 'plain-http', 'pem-files', 'acme', 'behind-proxy'] as const;
export type ReachMode = (typeof REACH_MODES)[number];

/** Who can open a link on this host: this PC only, the office network only, or anyone. */
export const LINK_REACHES = ['loopback', 'private', 'public'] as const;
export type LinkReach = (typeof LINK_REACHES)[number];

const octets = (host: string) => host.split('.').map(Number);

/**
 * Who can open a link: `loopback` (this PC only), `private` (the LAN: RFC 1918, CGNAT, link
 * local, IPv6 ULA, mDNS and single-label names) or `public`. From the URL alone, no lookup:
 * the send dialog warns with it before a party gets a link it cannot open.
 */
export function linkReachOf(url: string): LinkReach {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return 'loopback';
  }
  if (host.startsWith('[')) host = host.slice(1, -1);
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return 'loopback';
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) {
    const [a = 0, b = 0] = octets(host);
    if (a === 127) return 'loopback';
    if (a === 0) return 'loopback';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
    if ((a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254)) return 'private';
    return 'public';
  }
  if (host.includes(':')) {
    if (/^(fc|fd)[0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return 'private';
    if (/^::ffff:/.test(host)) return linkReachOf(`http://${host.slice(7)}/`);
    return 'public';
  }
  if (!host.includes('.')) return 'private';
  if (/\.(local|lan|home|internal|intranet|corp|home\.arpa)$/.test(host)) return 'private';
  return 'public';
}

const ZCertificateStateSchema = z
  .object({
    subject: z.string().nullable(),
    issuer: z.string().nullable(),
    valid_from: ZTimestampSchema.nullable(),
    valid_to: ZTimestampSchema.nullable(),
    names: z.array(z.string()).meta({ description: 'The DNS names and addresses the certificate is for' }),
    fingerprint_sha256: z.string().nullable(),
    loaded_time: ZTimestampSchema.nullable().meta({ description: 'When this certificate started being served' }),
    last_error: z.string().nullable().meta({
      description: 'The last failure to load or renew a certificate; the one above is still served',
    }),
    last_error_time: ZTimestampSchema.nullable(),
  })
  .meta({ id: 'ReachCertificate' });

export const ZReachSettingsSchema = z
  .object({
    mode: z.enum(REACH_MODES).meta({ description: 'How parties reach the party surface (docs/reach.md)' }),
    public_base_url: z.string().meta({
      description: "The base of the links handed to parties now (PUBLIC_BASE_URL, else the party listener's URL)",
    }),
    link_reach: z.enum(LINK_REACHES).meta({
      description:
        'Who can open those links: loopback (this PC only), private (the office network only) or public. Not a test: see the check',
    }),
    public_listen_url: z.string().nullable().meta({
      description: 'Where the party listener listens now; null: there is none and one listener serves all',
    }),
    public_port: z.number().int().nullable().meta({
      description:
        "PUBLIC_PORT as SignDesk's next start uses it: the saved value, else the environment's; null: no party listener",
    }),
    public_host: z.string().meta({
      description: "PUBLIC_HOST as the next start uses it: the saved value, else the environment's, else 0.0.0.0",
    }),
    source: z
      .enum(SETTING_SOURCES)
      .nullable()
      .meta({ description: 'Where public_port comes from: saved settings, the environment (PUBLIC_PORT) or nowhere' }),
    is_restart_needed: z
      .boolean()
      .meta({ description: 'public_port or public_host differ from what the running listener uses' }),
    listener_error: z
      .string()
      .nullable()
      .meta({ description: 'Why the party listener of the saved settings did not start, if it did not' }),
    trusted_proxies: z.array(z.string()).meta({ description: 'TRUSTED_PROXIES: the peers whose X-Forwarded-* count' }),
    certificate: ZCertificateStateSchema.nullable().meta({
      description: 'The certificate the party listener serves (PEM files or ACME); null: it serves none',
    }),
  })
  .meta({ id: 'ReachSettings' });

const PORT_RULE = 'must be a port number from 1 to 65535';
const port = z.number({ error: PORT_RULE }).int(PORT_RULE).min(1, PORT_RULE).max(65_535, PORT_RULE);
const host = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[0-9A-Za-z.:-]+$/, 'must be an IP address or a host name of this PC');

export const ZReachSettingsUpdateSchema = z
  .strictObject({
    public_port: port.nullable().optional(),
    public_host: host.nullable().optional(),
  })
  .meta({
    id: 'ReachSettingsUpdate',
    description:
      'Saved values win over PUBLIC_PORT and PUBLIC_HOST and take effect when SignDesk next starts; null removes the saved value.',
  });

export const REACH_SETTINGS_READ_ONLY_FIELDS = [
  'mode',
  'public_base_url',
  'link_reach',
  'public_listen_url',
  'source',
  'is_restart_needed',
  'listener_error',
  'trusted_proxies',
  'certificate',
] as const;

/** Where the self-check stopped. `exposed`: this SignDesk answered, but office paths answer there too. */
export const REACH_CHECK_STAGES = ['address', 'dns', 'connect', 'tls', 'http', 'identity', 'exposed'] as const;

/** Which of SignDesk's listeners answered the health path: the party listener, or the office's (which serves all). */
export const REACH_SURFACES = ['party', 'office'] as const;

export const ZReachCheckSchema = z
  .object({
    ok: z.boolean(),
    url: z.string().meta({ description: 'The public health address the appliance fetched' }),
    failed_stage: z.enum(REACH_CHECK_STAGES).nullable().meta({
      description:
        "Where it failed: the address itself (or the outbound address policy refused it), the DNS lookup, the TCP connection (port), the TLS certificate, the HTTP answer, the answer came from something other than this appliance, or the office's own paths (admin UI, API docs, API) answer through the public address",
    }),
    error: z.string().nullable().meta({ description: 'What failed, in plain words, with what to look at' }),
    addresses: z.array(z.string()).meta({ description: 'What the host name resolved to' }),
    status: z.number().int().nullable().meta({ description: 'The HTTP status of the answer, if any' }),
    surface: z.enum(REACH_SURFACES).nullable().meta({
      description:
        "Which of this SignDesk's listeners answered: party (PUBLIC_PORT, the only one that belongs on the internet) or office (HOST:PORT, which serves the admin UI and the API too); null: not this SignDesk, or no answer",
    }),
    office_paths: z.array(z.string()).meta({
      description:
        'Office paths (/admin/, /apidoc/v1/, /api/…) that answered through the public address: anyone with the address reaches them. Empty when none did or they were not tried',
    }),
    duration_ms: z.number().int(),
  })
  .meta({ id: 'ReachCheck' });

export type TReachSettings = z.infer<typeof ZReachSettingsSchema>;
export type TReachSettingsUpdate = z.infer<typeof ZReachSettingsUpdateSchema>;
export type TReachCheck = z.infer<typeof ZReachCheckSchema>;
export type TReachCertificate = z.infer<typeof ZCertificateStateSchema>;
