import diagnostics from 'node:diagnostics_channel';
import type { LookupFunction, Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Agent, buildConnector, type Dispatcher } from 'undici';

/**
 * The one outbound HTTP client (undici, which Node's own fetch is built on): the time-stamp
 * authority, CRL and OCSP fetches, the SMS gateway, webhooks and the reach self-check all go
 * through `exchange`. What every exchange gets here, once:
 * - the connection judged at connect time (`connection`: the outbound address policy's
 *   checked lookup, or the self-check's address), every new connection, so a name that
 *   re-resolves to a refused address never gets one;
 * - one deadline for the whole exchange (connecting, sending, the answer's last byte read):
 *   without a status line by then it fails; with one, the answer so far comes back `cut`;
 * - an AbortSignal, an already-aborted one too (nothing is sent then);
 * - no redirects (undici's dispatch follows none: a 3xx is an answer like any other);
 * - the answer read up to `maxBytes`, `keepBytes` of it kept; more, and the connection is
 *   dropped rather than drained.
 * Errors without an answer are `ExchangeError`s with Node's codes (ECONNREFUSED, ETIMEDOUT,
 * ECONNRESET, EOUTBOUNDPOLICY…), which describeNetworkError turns into words without addresses.
 */

/** How a connection to host:port is made: its socket options (a checked lookup); throws to refuse it. */
export type ConnectionCheck = (host: string, port: number) => { lookup?: LookupFunction };

export type ClientOptions = {
  connection: ConnectionCheck;
  /** Keep connections open between exchanges to the same origin (webhooks); otherwise one per exchange. */
  keepAlive?: boolean;
  /** TLS options of every connection (a CA of its own, say). */
  tls?: ConnectionOptions;
  /**
   * A connection not made by then fails (60 s by default). undici cannot stop a connection on
   * its way when the exchange that asked for it ends, so this is at least as long as the
   * exchanges' deadlines, which end each exchange on their own.
   */
  connectTimeoutMs?: number;
};

export type Exchange = {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Uint8Array;
  /** The whole exchange, from asking for a connection to the answer's last byte. */
  timeoutMs: number;
  /** Bytes of the answer read at most: past them the reading stops, the connection is dropped, `cut` is 'size'. */
  maxBytes: number;
  /** Bytes of the answer kept in `body` (all that is read, by default). */
  keepBytes?: number;
  signal?: AbortSignal | undefined;
};

export type Answer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Why the answer is not whole: more than maxBytes, the deadline, the signal, or the connection failed while reading. */
  cut: 'size' | 'time' | 'stopped' | 'failed' | undefined;
  /** What failed while reading (`cut` 'failed'). */
  error?: ExchangeError;
};

/** An exchange that brought no answer (no status line). */
export class ExchangeError extends Error {
  override name = 'ExchangeError';
  /** Node's code for what happened: ECONNREFUSED, ETIMEDOUT, ECONNRESET, EOUTBOUNDPOLICY, EABORTED (the signal)… */
  readonly code: string;
  /** `failed` (the network, the other side, the policy), `timeout` (the exchange's deadline), `stopped` (its signal). */
  readonly kind: 'failed' | 'timeout' | 'stopped';
  /** `connect` before a connection carried the request (refused, DNS, TLS, the policy), `answer` once it was sent. */
  readonly stage: 'connect' | 'answer';
  /** The connection had carried an earlier exchange (kept alive): a reset on it may mean it had gone stale. */
  readonly isReusedConnection: boolean;
  constructor(
    message: string,
    details: Pick<ExchangeError, 'code' | 'kind' | 'stage'> & { isReusedConnection?: boolean; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
    this.kind = details.kind;
    this.stage = details.stage;
    this.isReusedConnection = details.isReusedConnection ?? false;
  }
}

export type HttpClient = {
  exchange(url: URL, exchange: Exchange): Promise<Answer>;
  /** Ends the kept connections (exchanges in flight fail). */
  close(): Promise<void>;
};

/** `Authorization: Basic` for a URL with `user:password@`, as Node's http.request did (the SMS gateway, a TSA). */
export function basicAuthOf(url: URL): Record<string, string> {
  if (url.username === '' && url.password === '') return {};
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** undici's codes as Node's http had them, so that messages and tests read as before. */
const NODE_CODES: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_HEADERS_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_BODY_TIMEOUT: 'ETIMEDOUT',
  // "other side closed": Node's http said ECONNRESET ("socket hang up").
  UND_ERR_SOCKET: 'ECONNRESET',
  UND_ERR_CLOSED: 'EABORTED',
  UND_ERR_DESTROYED: 'EABORTED',
  UND_ERR_ABORTED: 'EABORTED',
};
const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return 'EUNKNOWN';
  if (code.startsWith('HPE_')) return 'EPROTO';
  return NODE_CODES[code] ?? code;
};

/**
 * Requests started on a connection: a connection that carried one before is a reused one.
 * undici says which socket a request goes on only through its diagnostics channel, in the same
 * turn as the handler's onRequestStart: the handler leaves itself here, the channel takes it.
 */
const requestsBySocket = new WeakMap<Socket, number>();
let starting: { isReusedConnection: boolean } | undefined;
diagnostics.subscribe('undici:client:sendHeaders', (message) => {
  const { socket } = message as { socket: Socket };
  const earlier = requestsBySocket.get(socket);
  if (earlier === undefined) return;
  requestsBySocket.set(socket, earlier + 1);
  if (starting) starting.isReusedConnection = earlier > 0;
  starting = undefined;
});

export function createHttpClient(options: ClientOptions): HttpClient {
  const keepAlive = options.keepAlive ?? false;
  /** undici's connectors (each keeps a TLS session cache): one per lookup the check hands out, one without. */
  const connectors = new Map<LookupFunction | undefined, buildConnector.connector>();
  const connectorFor = (lookup: LookupFunction | undefined) => {
    let connector = connectors.get(lookup);
    if (!connector) {
      if (connectors.size > 256) connectors.clear();
      const build = { ...options.tls, timeout: options.connectTimeoutMs ?? 60_000, ...(lookup ? { lookup } : {}) };
      connector = buildConnector(build as buildConnector.BuildOptions);
      connectors.set(lookup, connector);
    }
    return connector;
  };
  const connect: buildConnector.connector = (target, callback) => {
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    let lookup: LookupFunction | undefined;
    try {
      lookup = options.connection(target.hostname, port).lookup;
    } catch (error) {
      process.nextTick(() => callback(error as Error, null));
      return;
    }
    return connectorFor(lookup)(target, (...result) => {
      const [, socket] = result;
      if (socket) requestsBySocket.set(socket as Socket, 0);
      callback(...result);
    });
  };
  const agent = new Agent({
    connect,
    // undici's own timers only as a backstop: each exchange has its deadline.
    headersTimeout: 0,
    bodyTimeout: 0,
    ...(keepAlive ? { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 } : { pipelining: 0 }),
  });

  return {
    exchange: (url, exchange) => run(agent, url, exchange),
    close: () => agent.destroy(),
  };
}

const stopped = (stage: ExchangeError['stage']) =>
  new ExchangeError('the request was stopped', { code: 'EABORTED', kind: 'stopped', stage });

function run(agent: Agent, url: URL, exchange: Exchange): Promise<Answer> {
  const { signal } = exchange;
  if (signal?.aborted) return Promise.reject(stopped('connect'));
  const keepBytes = Math.min(exchange.keepBytes ?? exchange.maxBytes, exchange.maxBytes);
  return new Promise<Answer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers: Answer['headers'] = {};
    const chunks: Buffer[] = [];
    let kept = 0;
    let read = 0;
    let isSettled = false;
    const state = { isReusedConnection: false, isSent: false };

    const settle = (result: { answer: Answer } | { error: ExchangeError }) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if ('answer' in result) resolve(result.answer);
      else reject(result.error);
    };
    const answer = (cut: Answer['cut'], error?: ExchangeError): { answer: Answer } => ({
      answer: { status, headers, body: Buffer.concat(chunks, kept), cut, ...(error ? { error } : {}) },
    });
    /** Ends the exchange from here (deadline, signal, size): settled now, undici's side dropped. */
    const stop = (cut: 'time' | 'stopped', error: ExchangeError) => {
      settle(status > 0 ? answer(cut) : { error });
      controller?.abort(error);
    };
    const stage = () => (state.isSent ? 'answer' : 'connect');
    const onAbort = () => stop('stopped', stopped(stage()));
    const timer = setTimeout(() => {
      const message = `no answer within ${exchange.timeoutMs} ms`;
      stop('time', new ExchangeError(message, { code: 'ETIMEDOUT', kind: 'timeout', stage: stage() }));
    }, exchange.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(start) {
        controller = start;
        if (isSettled) return start.abort(stopped('connect'));
        state.isSent = true;
        starting = state;
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        // 1xx: informational, the answer is still to come.
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(current, chunk) {
        if (isSettled) return;
        read += chunk.length;
        if (kept < keepBytes) {
          const part = chunk.subarray(0, keepBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (read > exchange.maxBytes) {
          settle(answer('size'));
          current.abort(
            new ExchangeError('the answer was longer than allowed', {
              code: 'EABORTED',
              kind: 'stopped',
              stage: 'answer',
            }),
          );
        }
      },
      onResponseEnd() {
        // undici frees the connection in a setImmediate queued after this call (client-h1's
        // onMessageComplete, then kResume): settled a turn after that, so that an exchange the
        // caller starts at once reuses it (kept alive) instead of opening another.
        const whole = answer(undefined);
        setImmediate(() => setImmediate(() => settle(whole)));
      },
      onResponseError(_controller, error) {
        if (isSettled) return;
        const failure =
          error instanceof ExchangeError
            ? error
            : new ExchangeError(error.message, {
                code: codeOf(error),
                kind: 'failed',
                stage: stage(),
                isReusedConnection: state.isReusedConnection,
                cause: error,
              });
        settle(status > 0 ? answer('failed', failure) : { error: failure });
      },
    };
    try {
      agent.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname || '/'}${url.search}`,
          method: exchange.method,
          headers: exchange.headers ?? {},
          body: exchange.body ?? null,
        },
        handler,
      );
    } catch (error) {
      const failure = { code: codeOf(error), kind: 'failed', stage: 'connect', cause: error } as const;
      settle({ error: new ExchangeError((error as Error).message, failure) });
    }
  });
}
