// A SignDesk webhook receiver in plain Node.js (18 or later, no dependencies): it checks every
// event's Content-Digest, its RFC 9421 Ed25519 signature and its expiry, handles each event
// once (by its Webhook-Id), answers 200 when it has, and 400 when the request does not verify.
//
//   SIGNDESK_KEY_ID=ed25519-1 node webhook-receiver.mjs
//
// Environment: SIGNDESK_KEY_ID (the consumer's key_id), SIGNDESK_PUBLIC_KEY_FILE (its public_key
// saved as PEM; default ./signdesk-public-key.pem), PORT (default 4242). Events go to POST /webhooks.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

const PORT = Number(process.env.PORT ?? 4242);
const KEY_ID = process.env.SIGNDESK_KEY_ID ?? 'ed25519-1';
const PUBLIC_KEY = createPublicKey(readFileSync(process.env.SIGNDESK_PUBLIC_KEY_FILE ?? 'signdesk-public-key.pem'));
const COVERED = ['@method', '@path', 'host', 'date', 'content-digest'];
const CLOCK_SKEW_S = 60;
const handled = new Set(); // Webhook-Id values already handled: keep them in your database

/** The sig1 member of Signature-Input: its component names, its parameters and its exact text. */
function parseSignatureInput(header) {
  const match = /(?:^|,)\s*sig1=(\(([^)]*)\)((?:;[a-z]+=(?:"[^"]*"|\d+))*))/.exec(header ?? '');
  if (!match) return undefined;
  const components = [...match[2].matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  const params = {};
  for (const [, name, value] of match[3].matchAll(/;([a-z]+)=("[^"]*"|\d+)/g)) {
    params[name] = value.startsWith('"') ? value.slice(1, -1) : Number(value);
  }
  return { components, params, text: match[1] };
}

/** Why the request does not verify, or undefined when it does. */
function checkRequest(req, body) {
  const digest = /sha-256=:([A-Za-z0-9+/=]+):/.exec(req.headers['content-digest'] ?? '')?.[1];
  if (digest !== createHash('sha256').update(body).digest('base64')) return 'Content-Digest does not match the body';
  const input = parseSignatureInput(req.headers['signature-input']);
  if (!input) return 'no sig1 in Signature-Input';
  if (!COVERED.every((name) => input.components.includes(name)))
    return 'the signature does not cover every required component';
  const { keyid, alg, created, expires } = input.params;
  if (keyid !== KEY_ID || alg !== 'ed25519') return `unknown key ${keyid} or algorithm ${alg}`;
  const now = Math.floor(Date.now() / 1000);
  if (!(expires > now)) return 'the signature has expired';
  if (!(created <= now + CLOCK_SKEW_S)) return 'the signature was made in the future';
  const signature = /(?:^|,)\s*sig1=:([A-Za-z0-9+/=]+):/.exec(req.headers.signature ?? '')?.[1];
  if (!signature) return 'no sig1 in Signature';
  // The signature base of RFC 9421 section 2.5: one line per covered component, then the parameters.
  const values = { '@method': req.method, '@path': new URL(req.url, 'http://receiver').pathname };
  const lines = input.components.map(
    (name) => `"${name}": ${(values[name] ?? String(req.headers[name] ?? '')).trim()}`,
  );
  lines.push(`"@signature-params": ${input.text}`);
  const isValid = verify(null, Buffer.from(lines.join('\n')), PUBLIC_KEY, Buffer.from(signature, 'base64'));
  return isValid ? undefined : 'the signature does not verify';
}

/** Your work goes here; it runs once per event. */
function handleEvent(event, webhookId) {
  console.log(JSON.stringify({ webhookId, type: event.type, timestamp: event.timestamp, data: event.data }));
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const problem = req.method === 'POST' ? checkRequest(req, body) : 'POST events only';
    if (problem) {
      console.error(`refused: ${problem}`);
      res.writeHead(400, { 'content-type': 'text/plain' }).end(problem);
      return;
    }
    const webhookId = req.headers['webhook-id'];
    if (webhookId === undefined || !handled.has(webhookId)) {
      handleEvent(JSON.parse(body.toString('utf8')), webhookId);
      if (webhookId !== undefined) handled.add(webhookId);
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});

server.listen(PORT, () => console.error(`listening on http://127.0.0.1:${server.address().port}/webhooks`));
