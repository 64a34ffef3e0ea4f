import { fieldTable, parameterTable } from './field-table';
import { codeBlock, escapeHtml, inlineCode, paragraphs } from './html';
import type { ApiDocument, Operation } from './render-operation';

/** The receivers of docs/examples, shown whole and served as files under /apidoc/v1/examples/. */
export type Receivers = { node: string; python: string };
export const RECEIVER_FILES = { node: 'webhook-receiver.mjs', python: 'webhook_receiver.py' } as const;

const eventAnchor = (type: string) => `event-${type.replace(/\W+/g, '-')}`;

function describeSchedule(delays: readonly number[]): string {
  const words = (seconds: number) => {
    const h = Math.floor(seconds / 3600);
    const min = Math.round((seconds % 3600) / 60);
    return [h ? `${h} h` : '', min ? `${min} min` : ''].filter(Boolean).join(' ') || `${seconds} s`;
  };
  let total = 0;
  const rows = delays.map((delay, index) => {
    total += delay;
    return `<tr><td>${index + 2}</td><td>${words(delay)}</td><td>${words(total)}</td></tr>`;
  });
  return `<table class="schedule"><thead><tr><th>Attempt</th><th>After the previous one</th><th>After the event</th></tr></thead><tbody>
<tr><td>1</td><td>a couple of seconds after the change</td><td></td></tr>${rows.join('')}</tbody></table>`;
}

function renderEvent(document: ApiDocument, type: string, operation: Operation): string {
  const media = operation.requestBody?.content['application/json'];
  const example =
    media?.example === undefined
      ? ''
      : codeBlock(JSON.stringify(media.example, null, 2), { class: 'payload-example' }, `${type} body`);
  return `<section id="${eventAnchor(type)}" class="operation">
<header><h3><span class="method post">POST</span> <code>${escapeHtml(type)}</code></h3><p><strong>${inlineCode(operation.summary ?? '')}</strong></p></header>
<div class="reference">
<h4>Body</h4>
${media?.schema ? fieldTable(document, media.schema, 'webhook-payload', false) : ''}
</div>
<div class="examples">${example}</div>
</section>`;
}

const SIGNATURE_BASE = `"@method": POST
"@path": /webhooks
"host": 127.0.0.1:4242
"date": Sun, 22 Nov 2026 14:30:00 GMT
"content-digest": sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:
"@signature-params": ("@method" "@path" "host" "date" "content-digest");keyid="ed25519-1";alg="ed25519";created=1795357800;expires=1795358100`;

function renderVerification(): string {
  return `<section id="verifying"><h3>Verifying an event</h3>
<p>Check all of these before you act on an event, and answer <code>400</code> when one fails. A library for RFC 9421 with Ed25519 does
it for you (for Node.js, <code>http-message-signatures</code>); the receivers below do it with nothing but the platform's crypto.</p>
<ol class="steps">
<li>Read the body as bytes, before any JSON parsing. Its SHA-256, base64, must equal the value in <code>Content-Digest</code>
(<code>sha-256=:&lt;base64&gt;:</code>).</li>
<li>Read the <code>sig1</code> member of <code>Signature-Input</code>: it must cover <code>"@method"</code>, <code>"@path"</code>, <code>"host"</code>,
<code>"date"</code> and <code>"content-digest"</code>, its <code>keyid</code> must be your consumer's <code>key_id</code> and <code>alg</code> must be
<code>"ed25519"</code>.</li>
<li><code>expires</code> (UNIX seconds, <code>created</code> + 300) must not have passed: that stops replays. Allow a little clock skew on <code>created</code>.</li>
<li>Build the signature base (RFC 9421 section 2.5): one line per covered component, in the order listed, <code>"name": value</code>, where
<code>@method</code> is the method, <code>@path</code> the request path without the query, and the others the header values; then a last line
<code>"@signature-params": </code> followed by the exact text after <code>sig1=</code> in <code>Signature-Input</code>. Lines are joined by a single
<code>\\n</code>, with none at the end. For example:
${codeBlock(SIGNATURE_BASE, { class: 'signature-base' }, 'Signature base')}</li>
<li>Verify the Ed25519 signature (the base64 between the colons of <code>Signature: sig1=:…:</code>) over those bytes with your consumer's
<code>public_key</code> (PEM, SubjectPublicKeyInfo).</li>
<li>Act on the event once: an event is retried until you answer 2xx, so remember the <code>Webhook-Id</code> of the events you have handled and
answer 200 again without acting when one comes back. Then fetch <code>data.id</code> through the API for the contract's state.</li>
</ol></section>`;
}

function renderReceivers(receivers: Receivers): string {
  return `<section id="receivers"><h3>Receivers</h3>
<p>Two small, complete receivers: run one as it is, or copy its checks into your own service. Both read the consumer's <code>key_id</code> from
<code>SIGNDESK_KEY_ID</code> and its <code>public_key</code> from <code>signdesk-public-key.pem</code> (or <code>SIGNDESK_PUBLIC_KEY_FILE</code>), listen on
<code>PORT</code> (4242), and print each event they handle as one JSON line.</p>
<h4 id="receiver-node">Node.js (18 or later, no dependencies): <a href="/apidoc/v1/examples/${RECEIVER_FILES.node}" download>${RECEIVER_FILES.node}</a></h4>
${codeBlock(receivers.node, { class: 'receiver', 'data-language': 'javascript' }, RECEIVER_FILES.node)}
<h4 id="receiver-python">Python 3.8 or later, with <code>cryptography</code>: <a href="/apidoc/v1/examples/${RECEIVER_FILES.python}" download>${RECEIVER_FILES.python}</a></h4>
${codeBlock(receivers.python, { class: 'receiver', 'data-language': 'python' }, RECEIVER_FILES.python)}
</section>`;
}

/** Webhook events: their bodies, the signed request, the delivery rules, verification and receivers. */
export function renderWebhooks(document: ApiDocument, receivers: Receivers): string {
  const events = Object.entries(document.webhooks ?? {}).flatMap(([type, item]) =>
    item.post ? [[type, item.post] as const] : [],
  );
  const first = events[0]?.[1];
  const headers = (first?.parameters ?? []).filter((parameter) => parameter.in === 'header');
  const schedule = (first as { 'x-retry-schedule-seconds'?: number[] } | undefined)?.['x-retry-schedule-seconds'] ?? [];
  return `<section id="webhooks"><h2>Webhooks</h2>
<p>Register a receiver with ${'<a href="#createWebhook">POST /api/webhooks</a>'} (an administrator's customer token). Every event is then POSTed to it as
JSON, signed with the consumer's own Ed25519 key (RFC 9421 HTTP Message Signatures). The body only names what changed: fetch it
through the API for its state. Every event goes to every consumer; they are in the OpenAPI document's <code>webhooks</code> section too.</p>
${events.map(([type, operation]) => renderEvent(document, type, operation)).join('\n')}
<section id="webhook-headers"><h3>The request</h3>
<p>Every event is a <code>POST</code> to the consumer's URL with these headers:</p>
${parameterTable(document, headers, 'webhook-headers')}
</section>
<section id="webhook-delivery"><h3>Delivery, retries and disabling</h3>
${first?.description ? paragraphs(first.description) : ''}
${describeSchedule(schedule)}
<p>The consumer's event log (<a href="#listWebhookEvents">GET /api/webhooks/{webhook_id}/events</a>, one month) shows every attempt;
an event can be <a href="#retryWebhookEvent">retried by hand</a> and a disabled consumer <a href="#enableWebhook">enabled again</a>.</p>
</section>
${renderVerification()}
${renderReceivers(receivers)}
</section>`;
}

export const eventAnchorOf = eventAnchor;
