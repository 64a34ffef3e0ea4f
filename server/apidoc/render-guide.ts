import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_RATE_LIMIT,
  MAX_CONTENT_LENGTH,
  MAX_PAGE_SIZE,
  MAX_STRING_LENGTH,
} from '../../shared/constants';
import { API_KEY_VARIABLE, BASE_URL_VARIABLE } from '../http/openapi-examples';
import { fieldTable } from './field-table';
import { codeBlock, escapeHtml } from './html';
import { componentSchema, type ApiDocument, type Operation } from './render-operation';

function findOperation(document: ApiDocument, operationId: string): Operation {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) if (operation.operationId === operationId) return operation;
  }
  throw new Error(`the quick start names ${operationId}, which the document lacks`);
}

/** A step's request, the same curl as the endpoint's own section (`data-step` orders the walk-through). */
function stepRequest(document: ApiDocument, operationId: string, step: number): string {
  const source = findOperation(document, operationId)['x-codeSamples']?.[0]?.source ?? '';
  return codeBlock(source, { class: 'curl', 'data-operation': operationId, 'data-step': String(step) }, 'Request');
}

const link = (operationId: string, label: string) => `<a href="#${operationId}">${label}</a>`;

export function renderIntro(document: ApiDocument, baseUrl: string): string {
  return `<h1>SignDesk API</h1>
<p>SignDesk's REST API lets your own software do what the office does in the admin UI: upload contracts, add the parties and their
fields, send them for signing, follow their progress, and download the signed PDF. Signed <a href="#webhooks">webhook events</a>
tell you when something happened, so you need not poll.</p>
<p>This server speaks interface version <strong>${escapeHtml(document.info.version)}</strong> (header <code>Accept-Api-Version: 1</code>)
and runs SignDesk ${escapeHtml(document.info['x-app-version'] ?? '')}. Its base URL is <code>${escapeHtml(baseUrl)}</code>. The machine-readable
contract is <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1, with the webhook events under <code>webhooks</code>).
To show parties' signing pages inside your own web app, see <a href="/apidoc/v1/embedding">embedding the signing page</a>.</p>`;
}

export function renderQuickStart(document: ApiDocument, baseUrl: string): string {
  const setup = `export ${BASE_URL_VARIABLE}=${baseUrl}\nexport ${API_KEY_VARIABLE}='sdk_…:…'   # your API key`;
  const auth = `-H "Authorization: token $${API_KEY_VARIABLE}" -H "Accept-Api-Version: 1"`;
  const saveKey = `curl "$${BASE_URL_VARIABLE}/api/webhooks/1" ${auth} | jq -r .public_key > signdesk-public-key.pem`;
  const receiver = `curl -sS -O "$${BASE_URL_VARIABLE}/apidoc/v1/examples/webhook-receiver.mjs"\nSIGNDESK_KEY_ID=ed25519-1 node webhook-receiver.mjs`;
  return `<section id="quick-start"><h2>Quick start: a signed contract in six requests</h2>
<p>Every example on this page is a <code>curl</code> command that runs as printed once two shell variables are set. The ids in them
(<code>/api/contracts/1</code>, …) are those a fresh SignDesk gives; use the <code>self</code> (or the <code>Location</code> header) of your own answers.</p>
<ol class="steps">
<li><h3>Get an API key</h3>
<p>In the admin UI, <em>API tokens</em> → <em>New token</em> shows the key once. Or, on the SignDesk machine:
<code>npm run cli -- token create --name "my integration"</code> (the key is the last line). Then:</p>
${codeBlock(setup, { class: 'shell' }, 'Shell')}</li>
<li><h3>Register your webhook receiver</h3>
<p>${link('createWebhook', 'Register')} the URL your receiver listens on. Keep the <code>public_key</code> and <code>key_id</code> of the answer: they verify every event.</p>
${stepRequest(document, 'createWebhook', 1)}
<p>Save the public key as a file (here with <code>jq</code>), then fetch and start the <a href="#receivers">Node.js receiver</a> of this page in another terminal:</p>
${codeBlock(saveKey, { class: 'shell', 'data-step': '2' }, 'Shell')}
${codeBlock(receiver, { class: 'shell', 'data-step': '3', 'data-background': 'true' }, 'Shell, another terminal')}</li>
<li><h3>Upload the PDF</h3>
<p>${link('createContract', 'The PDF is the body')}; <code>?name=</code> names the contract. The answer is the new draft, and its
<code>Location</code> header is its path.</p>
${stepRequest(document, 'createContract', 4)}</li>
<li><h3>Add a party</h3>
<p>Here the party is you (<code>user</code> is the token's own user, <code>/api/users/1</code> on a fresh SignDesk), so that step 6
can sign for you at once. A customer is added with a name and an e-mail or mobile number and no <code>user</code>: they sign on the
page their invitation links to (the party's <code>contract_url</code>).</p>
${stepRequest(document, 'createContractParty', 5)}</li>
<li><h3>Place a signature field</h3>
<p>${link('createContractAnnotation', 'An annotation')} is a field for one party, in PDF points from the top-left corner of a page.</p>
${stepRequest(document, 'createContractAnnotation', 6)}</li>
<li><h3>Send it</h3>
<p>${link('sendContract', 'Sending')} makes the draft read-only and invites the parties. <code>auto_sign</code> signs at once the
parties whose <code>user</code> is you; as you are the only party, the contract is signed.</p>
${stepRequest(document, 'sendContract', 7)}</li>
<li><h3>Receive the events and download the signed PDF</h3>
<p>Your receiver prints <code>contract.party_signed</code>, then <code>contract.signed</code>, each verified. ${link('getContract', 'The contract')}
now says <code>"is_signed": true</code>, and the signed PDF, sealed with the office's certificate, is ready:</p>
${stepRequest(document, 'getContract', 8)}
${stepRequest(document, 'getSignedPdf', 9)}</li>
</ol></section>`;
}

export function renderConventions(document: ApiDocument): string {
  return `<section id="conventions"><h2>Conventions</h2>
<h3 id="authentication">Authentication and versions</h3>
<p>Every request carries <code>Authorization: token &lt;public_id&gt;:&lt;secret&gt;</code> (the API key) and
<code>Accept-Api-Version: 1</code> (an integer; a missing one is answered 400, another version 406). A request acts as the token's
user; an administrator's token may act as another active user with <code>Api-User-Uri: /api/users/&lt;id&gt;</code>, who then
becomes the author of what is created. Customer tokens use the customer API; partner tokens also the partner API under
<code>/api/partner/</code>, but cannot register webhook consumers.</p>
<p>The version header is required on the wire. The OpenAPI document declares it optional so that a client generated from it
(openapi-typescript with openapi-fetch, say) takes it once as a default header, <code>createClient({ headers: { 'Accept-Api-Version': '1' } })</code>,
instead of as a parameter of every call.</p>
<h3 id="requests">Requests</h3>
<p><code>POST</code> and <code>PUT</code> take <code>application/json</code> or <code>application/x-www-form-urlencoded</code> (form values
<code>true</code>/<code>false</code> and numerals are read as booleans and numbers). A contract's PDF and attachments are sent as the
body itself, at most 2 MiB. Unknown fields are refused (400); read-only fields (<code>self</code>, times, states) are ignored, so you can
send back what you read. On <code>PUT</code> only the fields sent change. Strings hold at most ${MAX_STRING_LENGTH.toLocaleString('en')}
characters, <code>content</code> fields ${MAX_CONTENT_LENGTH.toLocaleString('en')}. Query parameters are checked like bodies.</p>
<h3 id="responses">Responses and resources</h3>
<p>200 answers <code>GET</code> and <code>PUT</code>; a <code>POST</code> that creates answers 201 with the new resource and a
<code>Location</code> header holding its path (the same as its <code>self</code>); <code>DELETE</code> answers 204 with no body. Every
resource has a <code>self</code> path, <code>/api/&lt;collection&gt;/&lt;id&gt;</code>; references to other resources
(<code>created_by</code>, <code>party_id</code>, <code>template</code>) are such paths too, and path parameters are their integer ids.
Timestamps are <code>YYYY-MM-DD HH:MM:SS</code> in the office's time zone (Europe/Stockholm unless set otherwise).</p>
<h3 id="pagination">Pagination</h3>
<p>Every list pages: ${DEFAULT_PAGE_SIZE} items by default, <code>per_page</code> up to ${MAX_PAGE_SIZE}. Follow the <code>Link</code> header's
<code>rel="next"</code> and <code>rel="previous"</code> URLs; their <code>page</code> token is opaque and stays right while items are added.
<code>Pagination-Page</code>, <code>Pagination-Items-Total</code> and <code>Pagination-Num-Pages</code> say where you are. Lists are newest
first; the contract list also sorts (<code>sort=name,-id</code>). A contract search (<code>q</code>, <code>name</code>) looks at its
newest 1,000 matches; when more may match, its list and <code>/api/contract_counts</code> answer
<code>Search-Partial: true</code>, and the search wants narrowing.</p>
<h3 id="idempotency">Retries without duplicates</h3>
<p>Send any <code>POST</code> with an <code>Idempotency-Key</code> header (a UUID, at most 255 printable characters) and retry it
with the same key after a timeout or a lost connection: a repeat within 24 hours with the same path, query and body gets the first
answer again (status, body and <code>Location</code>, marked <code>Idempotent-Replayed: true</code>) and changes nothing, so an upload
retried makes one contract. The same key with another request is a 409 <code>idempotency-key</code> problem; a repeat that comes while
the first request is still running is a 409 with <code>Retry-After: 1</code>. Keys belong to the token that sent them. Answers of
5xx and 429 are not kept (nothing happened: retry as you like), nor downloads. If SignDesk itself stops in the middle of a request,
its key is forgotten and a retry runs the request again.</p>
<h3 id="request-id">Request ids</h3>
<p>Every answer carries a <code>Request-Id</code> header. Quote it when you ask the office about a request: the server's log lines
about that request name it.</p>
<h3 id="rate-limit">Rate limit</h3>
<p>${DEFAULT_RATE_LIMIT} requests a minute per token unless the token has its own limit. Every response carries <code>X-RateLimit-Limit</code>
and <code>X-RateLimit-Remaining</code>; once the quota is used up, <code>X-RateLimit-Reset</code> says when one new request can be made, and
a request past it gets 429 with <code>Retry-After</code> (seconds).</p>
<p>A script that makes many contracts needs more: an administrator raises a token's limit in the admin UI (API tokens, "Rate
limit"), with ${link('updateToken', 'the partner API')} (<code>PUT /api/partner/tokens/{token_id}</code> with <code>{"rate_limit": 600}</code>),
or when making the token (<code>npm run cli -- token create --name NAME --rate-limit 600</code>). The office's default for every
token without its own limit is ${link('updateCustomer', 'the customer profile')}'s.</p>
<h3 id="plan-limits">The office's plan</h3>
<p>An office may have a plan, set by its IT partner with ${link('updateSubscription', 'the partner API')}: seats (users active at once),
contracts sent and SMS per calendar month in the office's time zone, and an end date; each limit may be unlimited, and none is set
unless the partner sets it. Past a limit, <code>send</code>, <code>notify</code> and making a user active answer 403 with a problem of
type <a href="/apidoc/v1/posting_data#plan-limit"><code>plan-limit</code></a>: its <code>detail</code> names the limit
(<code>contracts_per_month</code>, <code>sms_per_month</code>, <code>seats</code>, <code>end_date</code>), what is used and when it resets,
and nothing was changed. A party's signing is never refused: contracts already sent are signed, sealed and downloaded.
${link('getSubscriptionUsage', "This month's usage")} says how much is left and when the month turns.</p>
<h3 id="problem-responses">Problem responses</h3>
<p>Every 4xx and 5xx answer is <code>application/problem+json</code>. Its <code>type</code> links to the <a href="/apidoc/v1/posting_data">explanation
of that problem</a>, and a request that fails changes nothing.</p>
${fieldTable(document, componentSchema(document, 'JsonProblemResponse'), 'problem', false)}
</section>`;
}
