import dns from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';
import type { TReachCheck } from '../../shared/api/reach';
import type { AppContext } from '../context/app-context';
import { describeNetworkError } from '../net/describe-network-error';
import { createHttpClient, ExchangeError } from '../net/http-client';
import { judgeAddress, oddAddressSpelling } from '../net/ip-address';
import { HEALTH_PATH } from './public-paths';

const TIMEOUT_MS = 5_000;
type Stage = NonNullable<TReachCheck['failed_stage']>;

class CheckFailure extends Error {
  constructor(
    readonly stage: Stage,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/;

/** What went wrong on the way to an answer, as a stage and advice. */
function classify(error: unknown, target: { address: string; port: number; isTls: boolean; connected: boolean }) {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const where = `${target.address} port ${target.port}`;
  if (code === 'ECONNREFUSED')
    return new CheckFailure(
      'connect',
      `Nothing accepts connections on ${where} (connection refused). Check that the router forwards port ${target.port} to this PC, that the firewall lets it in, and that the party listener runs (PUBLIC_PORT).`,
    );
  if (!target.connected && (code === 'ETIMEDOUT' || code === 'ECHECKTIMEOUT'))
    return new CheckFailure(
      'connect',
      `No connection to ${where} within ${TIMEOUT_MS / 1000} s. The router may not forward the port, or a firewall drops it. Many routers also cannot reach their own public address from inside the office (no hairpin NAT): then this check fails although parties outside can connect. Try the link from a phone on mobile data.`,
    );
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new CheckFailure('connect', `${where} cannot be reached from this PC (${describeNetworkError(error)}).`);
  if (target.isTls && (TLS_CODE.test(code) || code === 'EPROTO' || (code === 'ECONNRESET' && !target.connected)))
    return new CheckFailure(
      'tls',
      `The HTTPS certificate was not accepted (${describeNetworkError(error)}). Parties' browsers would warn the same way: use a certificate from a public authority for this very name (ACME, or the PEM files), with its intermediate certificates.`,
    );
  if (code === 'ECHECKTIMEOUT')
    return new CheckFailure(
      'http',
      `${where} accepted the connection but gave no answer within ${TIMEOUT_MS / 1000} s: something other than SignDesk may hold the port, or a proxy waits on an upstream that does not answer.`,
    );
  return new CheckFailure('http', `The request failed (${describeNetworkError(error)}).`);
}

/** One GET of `path` at `address`, with the URL's own name for TLS and Host. */
async function fetchPath(url: URL, address: string, path: string): Promise<{ status: number; body: string }> {
  const isTls = url.protocol === 'https:';
  const port = Number(url.port || (isTls ? 443 : 80));
  // Every name leads to the address already resolved (and shown): the URL's name stays the TLS name and Host.
  const lookup = ((_hostname, options, callback) =>
    options.all
      ? callback(null, [{ address, family: net.isIP(address) }])
      : callback(null, address, net.isIP(address))) as LookupFunction;
  const client = createHttpClient({ connection: () => ({ lookup }), connectTimeoutMs: TIMEOUT_MS });
  try {
    const answer = await client.exchange(new URL(path, url.origin), {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: TIMEOUT_MS,
      maxBytes: 64 * 1024,
      keepBytes: 4096,
    });
    if (answer.cut === 'time')
      throw new ExchangeError('timed out', { code: 'ETIMEDOUT', kind: 'timeout', stage: 'answer' });
    if (answer.cut === 'failed') throw answer.error;
    return { status: answer.status, body: answer.body.toString('utf8') };
  } catch (caught) {
    const error = caught as ExchangeError;
    const connected = error.stage === 'answer';
    // A deadline passed, connected or not: classify tells "no connection" from "no answer".
    const code = error.kind === 'timeout' ? 'ECHECKTIMEOUT' : error.code;
    throw classify(Object.assign(new Error(error.message), { code }), { address, port, isTls, connected });
  } finally {
    void client.close();
  }
}

/**
 * The office's own paths, which must never answer through the public address: the admin UI,
 * the API docs, the OpenAPI document and the API. The party listener answers each with a 404.
 */
export const OFFICE_PATHS = ['/admin/', '/apidoc/v1/', '/api/openapi.json', '/api/users'] as const;

/**
 * Whether an office path answered: a page or document (2xx), a redirect (3xx, `/admin` to
 * `/admin/`), or the API asking for a token (401). A 404 is the party listener's answer; a 403
 * or any other refusal is a proxy in front keeping the path out, which is as good.
 */
const isAnswered = (status: number) => (status >= 200 && status < 400) || status === 401;

async function resolveHost(hostname: string): Promise<string[]> {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (net.isIP(bare)) return [bare];
  try {
    const found = await dns.lookup(bare, { all: true });
    return found.map((entry) => entry.address);
  } catch (error) {
    throw new CheckFailure(
      'dns',
      `The name ${bare} does not resolve (${describeNetworkError(error)}). Make its DNS record (A, or AAAA for IPv6) point at the office's public address.`,
    );
  }
}

/**
 * The first address the outbound address policy lets the check connect to (net/outbound-policy.ts:
 * loopback, the LAN and the internet; never link-local, where cloud metadata answers, nor
 * unspecified, multicast or reserved addresses). This server's own ports are what the check is
 * for, so the policy's rule against them does not apply here.
 */
function allowedTarget(urlText: string, addresses: string[]): string {
  const odd = oddAddressSpelling(urlText);
  if (odd) throw new CheckFailure('address', `The outbound address policy refuses this address: ${odd}.`);
  const verdicts = addresses.map((address) => ({ address, verdict: judgeAddress(address) }));
  const allowed = verdicts.find((entry) => entry.verdict.isAllowed);
  if (allowed) return allowed.address;
  const first = verdicts[0]?.verdict;
  const reason = first && !first.isAllowed ? first.reason : 'no address';
  throw new CheckFailure(
    'address',
    `The outbound address policy refuses to connect there: the address is ${reason}. Parties' links must lead to an address on the internet (or the office network).`,
  );
}

/** What the health answer says: which SignDesk (its per-process instance) and which of its listeners. */
function readHealth(body: string): { instance: unknown; surface: unknown } {
  try {
    const parsed = JSON.parse(body) as { instance?: unknown; surface?: unknown };
    return { instance: parsed.instance, surface: parsed.surface };
  } catch {
    return { instance: undefined, surface: undefined };
  }
}

/** Why it fails when the office's own paths answer through the public address. */
function exposedFailure(ctx: AppContext, surface: 'party' | 'office', paths: string[]): CheckFailure {
  const listed = paths.length > 0 ? ` (${paths.join(', ')} answered)` : '';
  if (surface === 'party')
    return new CheckFailure(
      'exposed',
      `The party listener answers at this address, but so do the office's own paths${listed}: whatever is in front (a proxy, a tunnel, the router) sends them to the office port, and anyone with the address reaches the admin sign-in page and the API. Send every path to the party port only.`,
      200,
    );
  if (ctx.reach.listenUrl === undefined)
    return new CheckFailure(
      'exposed',
      `This address leads to SignDesk's only listener, which serves the office too: the admin sign-in page, the API docs and the API answer there for anyone who can reach it${listed}. That is for the office network only. To let parties outside sign, set a public port (PUBLIC_PORT, or the field below), restart, and forward or proxy only that port.`,
      200,
    );
  return new CheckFailure(
    'exposed',
    `This address leads to the office port (PORT), not the party listener: the admin sign-in page, the API docs and the API answer there for anyone who can reach it${listed}. Forward or proxy only the party port (PUBLIC_PORT), never the office port.`,
    200,
  );
}

/**
 * The self-check: the appliance fetches its own public health address, as a party's browser
 * would (the system's trust store, the URL's own name), and says where it failed. It knows its
 * own answer by the health answer's per-process instance id, and the party listener by its
 * `surface`; then it asks the same address for the office's own paths, none of which may answer.
 */
export async function checkReach(ctx: AppContext): Promise<TReachCheck> {
  const started = performance.now();
  const base = ctx.partyBaseUrl().replace(/\/+$/, '');
  const urlText = `${base}${HEALTH_PATH}`;
  let addresses: string[] = [];
  let surface: TReachCheck['surface'] = null;
  let officePaths: string[] = [];
  const finish = (failure: CheckFailure | undefined, status: number | null): TReachCheck => ({
    ok: failure === undefined,
    url: urlText,
    failed_stage: failure?.stage ?? null,
    error: failure?.message ?? null,
    addresses,
    status: failure ? failure.status : status,
    surface,
    office_paths: officePaths,
    duration_ms: Math.round(performance.now() - started),
  });
  try {
    const url = new URL(urlText);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CheckFailure('address', `${urlText} is not an http(s) address.`);
    addresses = await resolveHost(url.hostname);
    if (addresses.length === 0) throw new CheckFailure('dns', `The name ${url.hostname} resolves to no address.`);
    const target = allowedTarget(base, addresses);
    const answer = await fetchPath(url, target, url.pathname);
    if (answer.status !== 200) {
      throw new CheckFailure(
        'http',
        `It answered HTTP ${answer.status}: something other than SignDesk's party surface answers at this address (a proxy whose upstream is down says 502, a router's own page 200 or 404).`,
        answer.status,
      );
    }
    const health = readHealth(answer.body);
    if (health.instance !== ctx.reach.instance) {
      throw new CheckFailure(
        'identity',
        'Something answered, but not this SignDesk: the address or the port forward leads to another server.',
        answer.status,
      );
    }
    surface = health.surface === 'party' ? 'party' : 'office';
    // One path after the other: a handful of small requests to this very server.
    const prefix = url.pathname.slice(0, -HEALTH_PATH.length);
    for (const path of OFFICE_PATHS) {
      const probe = await fetchPath(url, target, `${prefix}${path}`);
      if (isAnswered(probe.status)) officePaths = [...officePaths, path];
    }
    if (surface !== 'party' || officePaths.length > 0) throw exposedFailure(ctx, surface, officePaths);
    return finish(undefined, answer.status);
  } catch (error) {
    if (error instanceof CheckFailure) return finish(error, error.status);
    return finish(new CheckFailure('address', `${urlText} cannot be checked: ${describeNetworkError(error)}`), null);
  }
}
