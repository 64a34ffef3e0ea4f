import dns from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';
import type { TReachCheck } from '../../shared/api/reach';
import type { AppContext } from '../context/app-context';
import { describeNetworkError } from '../net/describe-network-error';
import { createHttpClient, ExchangeError } from '../net/http-client';
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

/** One GET of the health path at `address`, with the URL's own name for TLS and Host. */
async function fetchHealth(url: URL, address: string): Promise<{ status: number; body: string }> {
  const isTls = url.protocol === 'https:';
  const port = Number(url.port || (isTls ? 443 : 80));
  // Every name leads to the address already resolved (and shown): the URL's name stays the TLS name and Host.
  const lookup = ((_hostname, options, callback) =>
    options.all
      ? callback(null, [{ address, family: net.isIP(address) }])
      : callback(null, address, net.isIP(address))) as LookupFunction;
  const client = createHttpClient({ connection: () => ({ lookup }), connectTimeoutMs: TIMEOUT_MS });
  try {
    const answer = await client.exchange(url, {
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
 * The self-check: the appliance fetches its own public health address, as a party's browser
 * would (the system's trust store, the URL's own name), and says where it failed. It knows
 * its own answer by the health answer's per-process instance id.
 */
export async function checkReach(ctx: AppContext): Promise<TReachCheck> {
  const started = performance.now();
  const urlText = `${ctx.partyBaseUrl().replace(/\/+$/, '')}${HEALTH_PATH}`;
  let addresses: string[] = [];
  const finish = (failure: CheckFailure | undefined, status: number | null): TReachCheck => ({
    ok: failure === undefined,
    url: urlText,
    failed_stage: failure?.stage ?? null,
    error: failure?.message ?? null,
    addresses,
    status: failure ? failure.status : status,
    duration_ms: Math.round(performance.now() - started),
  });
  try {
    const url = new URL(urlText);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CheckFailure('address', `${urlText} is not an http(s) address.`);
    addresses = await resolveHost(url.hostname);
    if (addresses.length === 0) throw new CheckFailure('dns', `The name ${url.hostname} resolves to no address.`);
    const answer = await fetchHealth(url, addresses[0]!);
    if (answer.status !== 200) {
      throw new CheckFailure(
        'http',
        `It answered HTTP ${answer.status}: something other than SignDesk's party surface answers at this address (a proxy whose upstream is down says 502, a router's own page 200 or 404).`,
        answer.status,
      );
    }
    let instance: unknown;
    try {
      instance = (JSON.parse(answer.body) as { instance?: unknown }).instance;
    } catch {
      instance = undefined;
    }
    if (instance !== ctx.reach.instance) {
      throw new CheckFailure(
        'identity',
        'Something answered, but not this SignDesk: the address or the port forward leads to another server.',
        answer.status,
      );
    }
    return finish(undefined, answer.status);
  } catch (error) {
    if (error instanceof CheckFailure) return finish(error, error.status);
    return finish(new CheckFailure('address', `${urlText} cannot be checked: ${describeNetworkError(error)}`), null);
  }
}
