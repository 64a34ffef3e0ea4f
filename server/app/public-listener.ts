import http from 'node:http';
import https from 'node:https';
import type { AppContext } from '../context/app-context';
import { answerClientError } from '../http/client-error';
import { publicGate } from '../http/public-gate';
import { guardInternetListener } from '../reach/listener-guard';
import { withTransportSecurity, type ProxyTrust } from '../http/transport-security';
import { certificateSourceOf, partyListenUrl } from '../reach/public-surface';
import { readSavedReach } from '../reach/reach-settings';
import { listen, type RunningListener } from './listen';

export const SERVER_TIMEOUTS = { requestTimeout: 120_000, headersTimeout: 30_000 } as const;

/**
 * The party listener faces the internet: a client gets 10 s for its TLS handshake (Node's
 * default is 120 s, which let half-sent ClientHellos pile up) and 10 s for its request's
 * headers, checked every second (Node checks every 30 s by default). A whole request may take
 * 120 s, for a 16 MiB PDF to /verify over a slow line.
 */
export const PUBLIC_TIMEOUTS = {
  requestTimeout: 120_000,
  headersTimeout: 10_000,
  connectionsCheckingInterval: 1_000,
} as const;
export const PUBLIC_HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * The party surface's own listener on PUBLIC_HOST:PUBLIC_PORT (none without PUBLIC_PORT): the
 * app behind the public gate, over HTTPS when a certificate source is configured. The source's
 * new pairs are served from the next handshake on (setSecureContext for clients without SNI,
 * the SNICallback for the rest); connections already open keep theirs.
 */
export async function startPublicListener(
  ctx: AppContext,
  listener: http.RequestListener,
  trust: ProxyTrust,
): Promise<(RunningListener & { url: string }) | undefined> {
  const { config } = ctx;
  if (config.publicPort === undefined) return undefined;
  const source = certificateSourceOf(ctx);
  const gated = withTransportSecurity(publicGate(listener), trust);
  let server: http.Server;
  if (source) {
    await source.start();
    const first = source.current();
    const tlsServer = https.createServer(
      {
        ...PUBLIC_TIMEOUTS,
        handshakeTimeout: PUBLIC_HANDSHAKE_TIMEOUT_MS,
        ...(first ? { key: first.key, cert: first.cert } : {}),
        SNICallback: (_servername, done) => done(null, source.current()?.context),
      },
      gated,
    );
    source.onChange(() => {
      const pair = source.current();
      if (pair) tlsServer.setSecureContext({ key: pair.key, cert: pair.cert });
    });
    server = tlsServer;
  } else {
    server = http.createServer(PUBLIC_TIMEOUTS, gated);
  }
  guardInternetListener(ctx, server, 'party listener', (address) => trust(address, 0));
  // What Node's parser refuses is answered as a problem whose type names the party base, never the office's.
  server.on(
    'clientError',
    answerClientError(() => ctx.partyBaseUrl()),
  );
  let running: RunningListener;
  try {
    running = await listen(server, config.publicPort, config.publicHost);
  } catch (error) {
    source?.close();
    // A port saved in the settings page that cannot be had (in use, or below 1024 without the
    // right) must not keep the office from its own UI, where it is mended: said there instead.
    const saved = await readSavedReach(ctx.repos);
    if (saved.port === undefined && saved.host === undefined) throw error;
    const message = `The party listener could not start on ${config.publicHost} port ${config.publicPort}: ${(error as Error).message}`;
    ctx.logger.error({ err: error }, message);
    ctx.reach.listenerError = message;
    return undefined;
  }
  const url = partyListenUrl(config, running.port);
  ctx.reach.certificate = source;
  ctx.reach.listenUrl = url;
  return {
    ...running,
    url,
    close: async () => {
      source?.close();
      await running.close();
    },
  };
}
