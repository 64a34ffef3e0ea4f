import { escapeHtml, page } from './html';

const EXAMPLE = `<iframe id="signing" title="Sign the contract" src="" style="width:100%;height:90vh;border:0"></iframe>
<script>
  const SIGNDESK = 'http://signdesk.office.lan:8750'; // the appliance's public base URL (its origin)
  const frame = document.getElementById('signing');
  // contract_url of the party, from GET /api/contracts/{id}/parties/{party_id}
  frame.src = contractUrl + '?return_url=' + encodeURIComponent(location.origin + '/signed');
  window.addEventListener('message', (event) => {
    if (event.origin !== SIGNDESK || event.data?.source !== 'signdesk') return;
    if (event.data.event === 'signed') showThanks(event.data.party);
  });
</script>`;

/** /apidoc/v1/embedding: showing parties' signing pages inside an integrator's own web app. */
export function renderEmbedding(): string {
  return page(
    'Embedding the signing page',
    `<h1>Embedding the signing page</h1>
<p>A party's signing page (<code>contract_url</code>) can be shown inside your own web app, in an
<code>&lt;iframe&gt;</code>, and tell your page what the party did. A working example is
<code>docs/examples/embed.html</code> in the SignDesk source.</p>

<h2 id="origins">1. Allow your web app's origin</h2>
<p>By default the signing page refuses every frame (<code>Content-Security-Policy: frame-ancestors 'none'</code>).
An administrator lists the origins (scheme, host and port, no path) that may frame it: in the admin UI under
<em>Settings → Web apps that may show the signing page</em>, or through the API:</p>
<pre><code>PUT /api/settings/general
{ "signing_frame_origins": ["https://app.example.com", "http://localhost:3000"] }</code></pre>
<p>The page's <code>frame-ancestors</code> then names exactly those origins, and only they receive its events.
An empty list closes the page to frames again.</p>

<h2 id="events">2. Listen to the page's events</h2>
<p>The framed page posts a message to its parent window, to each allowed origin and to no other, when:</p>
<table><thead><tr><th><code>event</code></th><th>When</th></tr></thead><tbody>
<tr><td><code>loaded</code></td><td>the page has opened the party's link (whatever its stage: ready, already signed, expired…)</td></tr>
<tr><td><code>signed</code></td><td>the party signed (or approved)</td></tr>
<tr><td><code>rejected</code></td><td>the party rejected the document</td></tr>
<tr><td><code>failed</code></td><td>the party's answer was refused (the link expired meanwhile, another party rejected, no connection); <code>reason</code> says why</td></tr>
</tbody></table>
<p>Each message is an object <code>{ source: "signdesk", event, stage, contract, party, reason? }</code>:
<code>contract</code> and <code>party</code> are the API paths (<code>/api/contracts/7</code>,
<code>/api/contracts/7/parties/12</code>), or null while the link waits for its one-time code (a
<code>loaded</code> on the code page names neither; you know which link you framed), <code>stage</code>
the page's stage after the event. Check
<code>event.origin</code> against SignDesk's origin before trusting a message. Messages steer your page;
the signed PDF and the <code>contract.party_signed</code> / <code>contract.signed</code> webhooks remain the record.</p>

<h2 id="return-url">3. Send the party back (optional)</h2>
<p>Add <code>return_url</code> to the party's link: <code>{contract_url}?return_url=https%3A%2F%2Fapp.example.com%2Fdone</code>.
Once the party has signed or rejected, the page shows where it goes and, after a moment, opens that address
(in the frame, or in the window when the link was opened on its own) with <code>signdesk_event=signed</code> or
<code>signdesk_event=rejected</code> added. The URL must be http or https, at most 2,000 characters, and on one of
the allowed origins; any other <code>return_url</code> is ignored, so the link cannot send a party to a stranger's site.</p>

<h2 id="example">Example</h2>
<pre><code>${escapeHtml(EXAMPLE)}</code></pre>

<h2 id="limits">Limits</h2>
<ul>
<li>A contract with <code>require_auth</code> <code>EMAIL_CODE</code> or <code>SMS_CODE</code> works in the frame too: the party asks
for its code and enters it there. SignDesk keeps the verification in a cookie of its own site, over HTTPS also in a
partitioned cookie for your site's frames (Chrome, Firefox, Safari 18.4+); where the browser keeps no cookie for the frame
(plain HTTP, third-party cookies blocked), the page holds the verification itself for as long as its tab lives and sends
it with its own requests (never in a URL). Where the browser also refuses the framed page any storage, the page says
that a reload will ask for a new code and offers <em>Continue in a new window</em> (the same link on its own).</li>
<li>The party's unfinished work (values typed, the signature made) is kept in the browser until it signs or the link
closes, never on the server before signing; in a frame whose browser refuses storage it lasts while the page is open.</li>
<li>The page speaks the browser's language (<code>Accept-Language</code>) when it is English or Swedish, else the
contract's <code>language</code>; the party can switch.</li>
<li>Point <code>return_url</code> at a page of your app made to be shown inside the frame (a short "Thank you"), not at
the page that holds the frame, or the party sees your app inside itself.</li>
<li>The frame needs no <code>allow</code> or <code>sandbox</code> attributes; if you sandbox it, allow
<code>allow-scripts allow-same-origin allow-forms allow-downloads</code> (and <code>allow-top-navigation-by-user-activation</code>
for a return URL that leaves the frame).</li>
</ul>`,
  );
}
