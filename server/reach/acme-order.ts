import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import tls from 'node:tls';
import acme from 'acme-client';
import type { AppContext } from '../context/app-context';
import { describeNetworkError } from '../net/describe-network-error';
import { ExchangeError, type HttpClient } from '../net/http-client';
import type { ServedCertificate } from '../context/acme-runtime';
import type { ChallengeStore } from '../context/challenge-store';
import { newPrivateKeyPem, readOrCreateAccountKey } from './acme-store';

/** One request to the CA may take this long before the attempt fails (axios waits for ever by default). */
const REQUEST_TIMEOUT_MS = 30_000;

/** Bytes of one answer of the CA read at most (a directory, an order, a certificate chain). */
const MAX_ANSWER_BYTES = 1024 * 1024;

type Connection = { client: HttpClient; networkError?: Error };

/** What of axios's request config and response the adapter reads and gives (acme-client's axios is not ours to import). */
type AxiosConfig = {
  url?: string;
  baseURL?: string;
  method?: string;
  headers?: { toJSON?: () => Record<string, unknown> } & Record<string, unknown>;
  data?: unknown;
  validateStatus?: ((status: number) => boolean) | null;
};

/**
 * acme-client makes its requests with one axios instance of its own. Each order runs in its own
 * async context holding a client of the outbound address policy (with the CA file trusted, when
 * one is configured), and this interceptor makes axios hand each request of that order to it
 * (an adapter): no global agent, no TLS check turned off, no proxy from the environment, no
 * redirects followed, one deadline and a size limit per request. The adapter notes a
 * connection's failure: acme-client 5.4 turns it into a TypeError of its own ("reading
 * 'config'") by the time it reaches us.
 */
const orderConnection = new AsyncLocalStorage<Connection>();
acme.axios.interceptors.request.use((request) => {
  const connection = orderConnection.getStore();
  if (connection) (request as { adapter?: unknown }).adapter = (config: AxiosConfig) => exchange(connection, config);
  return request;
});

/** One request of axios through our client; settled as axios's own adapters settle (validateStatus). */
async function exchange(connection: Connection, config: AxiosConfig) {
  const url = new URL(config.url ?? '', config.baseURL);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.headers?.toJSON?.() ?? config.headers ?? {})) {
    if (value != null && value !== false) headers[name.toLowerCase()] = String(value);
  }
  const data = config.data;
  const body = typeof data === 'string' ? Buffer.from(data) : data instanceof Uint8Array ? data : undefined;
  let answer;
  try {
    answer = await connection.client.exchange(url, {
      method: (config.method ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET',
      headers,
      ...(body ? { body } : {}),
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
    if (answer.cut === 'size')
      throw new ExchangeError('the answer was longer than allowed', {
        code: 'EMSGSIZE',
        kind: 'failed',
        stage: 'answer',
      });
    if (answer.cut === 'time')
      throw new ExchangeError('the answer did not end in time', {
        code: 'ETIMEDOUT',
        kind: 'timeout',
        stage: 'answer',
      });
    if (answer.cut)
      throw (
        answer.error ?? new ExchangeError('the answer was cut', { code: 'ECONNRESET', kind: 'failed', stage: 'answer' })
      );
  } catch (error) {
    connection.networkError ??= error as Error;
    throw error;
  }
  const response = {
    data: answer.body.toString('utf8'),
    status: answer.status,
    statusText: '',
    headers: answer.headers,
    config,
    request: {},
  };
  if (!config.validateStatus || config.validateStatus(response.status)) return response;
  const code = answer.status >= 400 && answer.status < 500 ? 'ERR_BAD_REQUEST' : 'ERR_BAD_RESPONSE';
  throw Object.assign(new Error(`Request failed with status code ${answer.status}`), {
    isAxiosError: true,
    code,
    config,
    request: {},
    response,
  });
}
// A failed order is tried again by our job with its back-off; the library's own retries (5,
// 10, 15, 20, 25 s in a row) would only hold the job.
(acme.axios.defaults as unknown as { acmeSettings: { retryMaxAttempts: number } }).acmeSettings.retryMaxAttempts = 0;

class NetworkFailure extends Error {
  constructor(override readonly cause: Error) {
    super('the ACME CA cannot be reached');
  }
}

/** What the admin reads when an order fails: the CA's own words, or what the connection did (no addresses). */
export function describeAcmeError(error: unknown): string {
  if (error instanceof NetworkFailure) return `the ACME CA cannot be reached: ${describeNetworkError(error.cause)}`;
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

/**
 * The account of our key: the existing one (found with onlyReturnExisting, its contact brought up
 * to ACME_EMAIL), else a new one with the CA's terms agreed. `auto` would otherwise "update" an
 * existing account with nothing but the terms, which CAs may refuse as an empty update.
 */
async function openAccount(client: acme.Client, email: string | undefined): Promise<void> {
  const contact = email ? [`mailto:${email}`] : undefined;
  let isExisting: boolean;
  try {
    await client.createAccount({ onlyReturnExisting: true });
    isExisting = true;
  } catch {
    // accountDoesNotExist, or a CA that cannot be reached: then the next request says so.
    isExisting = false;
  }
  if (!isExisting) await client.createAccount({ termsOfServiceAgreed: true, ...(contact ? { contact } : {}) });
  else if (contact) await client.updateAccount({ contact });
}

/**
 * Orders a certificate for the configured domain: the account (made at the first order, the
 * CA's terms agreed by setting ACME_DOMAIN), a fresh P-256 key, HTTP-01 answered from
 * `challenges`. The CA's validation is the only check: a self-check of our own public
 * address first would fail behind routers without hairpin NAT.
 */
export async function orderCertificate(
  ctx: AppContext,
  challenges: ChallengeStore,
  domain: string,
): Promise<ServedCertificate> {
  const { acme: settings } = ctx.config;
  // The CA file is trusted besides the system's roots (Node's `ca` alone would replace them).
  const ca = settings.caFile ? [...tls.rootCertificates, fs.readFileSync(settings.caFile, 'utf8')] : undefined;
  const connection: Connection = { client: ctx.outbound.createClient(ca ? { tls: { ca } } : {}) };
  const client = new acme.Client({
    directoryUrl: settings.directoryUrl,
    accountKey: await readOrCreateAccountKey(ctx.keys),
    backoffAttempts: 12,
    backoffMin: 1_000,
    backoffMax: 10_000,
  });
  const keyPem = newPrivateKeyPem();
  try {
    return await orderConnection.run(connection, async () => {
      await openAccount(client, settings.email);
      const [, csr] = await acme.crypto.createCsr({ commonName: domain, altNames: [domain] }, keyPem);
      const certPem = await client.auto({
        csr,
        challengePriority: ['http-01'],
        skipChallengeVerification: true,
        challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
          challenges.set(challenge.token, keyAuthorization);
        },
        challengeRemoveFn: async (_authz, challenge) => {
          challenges.delete(challenge.token);
        },
      });
      return { certPem, keyPem };
    });
  } catch (err) {
    // A connection that failed is what went wrong, whatever the library made of it.
    throw connection.networkError ? new NetworkFailure(connection.networkError) : err;
  } finally {
    await connection.client.close();
  }
}
