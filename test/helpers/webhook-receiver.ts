import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVerifier, httpbis } from 'http-message-signatures';

/**
 * A webhook consumer as an integrator would write one, built on a public RFC 9421 library
 * (http-message-signatures) rather than on our signer: it checks the Content-Digest against
 * the body, that the signature covers the components our webhooks sign, that it has not
 * expired, and the Ed25519 signature with the public key registered for the keyid. A request
 * that fails any check gets 400, as a consumer should.
 */
export type ReceivedRequest = {
  /** When the request arrived (before its body was read and verified). */
  at: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The parsed payload, when verified. */
  json: any;
  isVerified: boolean;
  verifyError: string | undefined;
  status: number | 'hang' | 'reset';
};

export type Reply = number | { status: number; body?: string; headers?: Record<string, string> } | 'hang' | 'reset';
export type Responder = (request: ReceivedRequest) => Reply | Promise<Reply>;

export type WebhookReceiver = {
  url: string;
  requests: ReceivedRequest[];
  /** Verified requests only. */
  verified(): ReceivedRequest[];
  /** Registers the public key (PEM) of a keyid, as an integrator stores it at registration. */
  trust(keyId: string, publicKeyPem: string): void;
  respond(responder: Responder): void;
  close(): Promise<void>;
};

const REQUIRED_COMPONENTS = ['@method', '@path', 'host', 'date', 'content-digest'];

export async function verifyWebhookRequest(
  keys: ReadonlyMap<string, string>,
  method: string,
  path: string,
  headers: http.IncomingHttpHeaders,
  body: Buffer,
): Promise<string | undefined> {
  const digest = /(?:^|,)\s*sha-256=:([A-Za-z0-9+/]+={0,2}):/.exec(String(headers['content-digest'] ?? ''));
  if (!digest) return 'no sha-256 Content-Digest';
  if (digest[1] !== createHash('sha256').update(body).digest('base64')) return 'Content-Digest does not match the body';
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  try {
    const isValid = await httpbis.verifyMessage(
      {
        keyLookup: async (params) => {
          const pem = typeof params.keyid === 'string' ? keys.get(params.keyid) : undefined;
          return pem ? { id: params.keyid as string, algs: ['ed25519'], verify: createVerifier(pem, 'ed25519') } : null;
        },
        requiredFields: REQUIRED_COMPONENTS,
        requiredParams: ['keyid', 'alg', 'created', 'expires'],
        all: true,
      },
      { method, url: `http://${flat.host}${path}`, headers: flat },
    );
    return isValid === true ? undefined : 'signature does not verify';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const keys = new Map<string, string>();
  const requests: ReceivedRequest[] = [];
  let responder: Responder = () => 200;

  const server = http.createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const verifyError = await verifyWebhookRequest(keys, req.method ?? '', path, req.headers, body);
      const request: ReceivedRequest = {
        at,
        method: req.method ?? '',
        path,
        headers: req.headers,
        body,
        json: verifyError ? undefined : JSON.parse(body.toString('utf8')),
        isVerified: verifyError === undefined,
        verifyError,
        status: 400,
      };
      requests.push(request);
      if (verifyError) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`signature validation failed: ${verifyError}`);
        return;
      }
      const reply = await responder(request);
      if (reply === 'hang' || reply === 'reset') {
        request.status = reply;
        if (reply === 'reset') req.socket.destroy();
        return;
      }
      const { status, body: text = 'ok', headers = {} } = typeof reply === 'number' ? { status: reply } : reply;
      request.status = status;
      res
        .writeHead(status, { 'content-type': 'text/plain', ...headers })
        .end(status === 204 || status === 304 ? undefined : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    verified: () => requests.filter((request) => request.isVerified),
    trust: (keyId, pem) => void keys.set(keyId, pem),
    respond: (next) => {
      responder = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on which nothing listens: connections to it are refused. */
export async function refusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
