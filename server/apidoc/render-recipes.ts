import { API_VERSION } from '../../shared/constants';
import { API_KEY_VARIABLE, BASE_URL_VARIABLE } from '../http/openapi-examples';
import { codeBlock } from './html';

const URL = `$${BASE_URL_VARIABLE}`;

/**
 * A recipe's block: a bash snippet that runs as printed after the recipes' setup block, in one
 * terminal with the blocks before it of the same recipe (they share shell variables). The
 * integrator walk-through test (test/integration/integrator-walkthrough.test.ts) runs them so.
 */
const step = (recipe: string, index: number, code: string) =>
  codeBlock(code, { class: 'shell', 'data-recipe': recipe, 'data-recipe-step': String(index) }, 'Shell');

const SETUP = `AUTH=(-H "Authorization: token $${API_KEY_VARIABLE}" -H "Accept-Api-Version: ${API_VERSION}")
JSON=(-H "Content-Type: application/json")`;

const WEBHOOKS_CHOSEN = `curl -sS -X POST "${URL}/api/webhooks" "\${AUTH[@]}" "\${JSON[@]}" \\
  -d '{"url": "http://127.0.0.1:4242/webhooks", "events": ["contract.sent", "contract.party_opened"]}' | jq -c .events`;
const WEBHOOKS_DEFAULT = `curl -sS -X POST "${URL}/api/webhooks" "\${AUTH[@]}" "\${JSON[@]}" \\
  -d '{"url": "http://127.0.0.1:4243/webhooks"}' | jq -c .events`;

const IDEMPOTENT_UPLOAD = `for attempt in 1 2; do
  curl -sS -X POST "${URL}/api/contracts?name=Lease%200042" "\${AUTH[@]}" \\
    -H "Idempotency-Key: 7c1e9a52-lease-0042" \\
    -H "Content-Type: application/pdf" --data-binary @contract.pdf | jq -r .self
done`;

const SEND_TO_TYPO = `CONTRACT=$(curl -sS -X POST "${URL}/api/contracts?name=Lease%20Storgatan%201" "\${AUTH[@]}" \\
  -H "Content-Type: application/pdf" --data-binary @contract.pdf | jq -r .self)
PARTY=$(curl -sS -X POST "${URL}$CONTRACT/parties" "\${AUTH[@]}" "\${JSON[@]}" \\
  -d '{"name": "Signe Svensson", "email": "signe@exmaple.com"}' | jq -r .self)
curl -sS -X POST "${URL}$CONTRACT/send" "\${AUTH[@]}" "\${JSON[@]}" -d '{}' | jq -r .sent_time
OLD_LINK=$(curl -sS "${URL}$PARTY" "\${AUTH[@]}" | jq -r .contract_url)`;

const PUT_REFUSED = `curl -sS -X PUT "${URL}$PARTY" "\${AUTH[@]}" "\${JSON[@]}" \\
  -d '{"email": "signe@example.com"}' | jq -r '"\\(.status) \\(.type)"'`;

const CORRECTION = `curl -sS -X POST "${URL}$PARTY/correction" "\${AUTH[@]}" "\${JSON[@]}" \\
  -d '{"email": "signe@example.com", "reason": "E-mail address mistyped"}' | jq -r .email
curl -sS -o /dev/null -w '%{http_code}\\n' "$OLD_LINK"`;

const TEST_SIGNING = `CONTRACT=$(curl -sS -X POST "${URL}/api/contracts" "\${AUTH[@]}" "\${JSON[@]}" \\
  -d '{"name": "CI lease", "content": "The tenant rents flat 1102.", "test_mode": true}' | jq -r .self)
PARTY=$(curl -sS -X POST "${URL}$CONTRACT/parties" "\${AUTH[@]}" "\${JSON[@]}" \\
  -d '{"name": "Test Tenant", "delivery_method": "NONE"}' | jq -r .self)
curl -sS -X POST "${URL}$CONTRACT/send" "\${AUTH[@]}" "\${JSON[@]}" -d '{}' > /dev/null
curl -sS -X POST "${URL}$PARTY/test_answer" "\${AUTH[@]}" "\${JSON[@]}" -d '{"answer": "accept"}' | jq .is_accept
curl -sS "${URL}$CONTRACT" "\${AUTH[@]}" | jq .is_signed`;

/** /apidoc/v1/#recipes: what an integration does after the quick start, each as commands that run as printed. */
export function renderRecipes(): string {
  return `<section id="recipes"><h2>Recipes for integrations</h2>
<p>Each recipe runs in one bash terminal with <code>curl</code> and <code>jq</code>, after the two variables of the quick start and
these two helpers are set:</p>
${codeBlock(SETUP, { class: 'shell', 'data-recipe-setup': 'true' }, 'Shell')}
<h3 id="recipe-events">Choose the events you receive</h3>
<p>Every consumer receives <code>contract.party_signed</code>, <code>contract.signed</code> and <code>contract.rejected</code>. One that
names more in <code>events</code> also receives those (the list is in <a href="#webhooks">Webhook events</a>); one that names none
receives exactly the three. The first prints <code>["contract.sent","contract.party_opened"]</code>, the second <code>[]</code>:</p>
${step('events', 1, WEBHOOKS_CHOSEN)}
${step('events', 2, WEBHOOKS_DEFAULT)}
<p>From now on the first receives <code>contract.sent</code> when a contract goes out and <code>contract.party_opened</code> the
first time each party opens its link in a browser (once per person: again for the new person after a correction or delegation;
see <a href="#webhooks">Webhook events</a>), besides the three; the second only the three.</p>
<h3 id="recipe-idempotency">Upload once, even when you retry</h3>
<p>The same upload twice with one <code>Idempotency-Key</code> makes one contract: both print the same path, and the second answer
carries <code>Idempotent-Replayed: true</code>. Use a new key (a UUID) for each contract you mean to make.</p>
${step('idempotency', 1, IDEMPOTENT_UPLOAD)}
<h3 id="recipe-correction">Correct a party's e-mail after sending</h3>
<p>A sent contract is read-only: <code>PUT</code> on its party is refused. The <a href="#correctContractParty">correction</a> action
changes the party's name, e-mail, mobile number or delivery with a reason: its old link stops working at once (404), a new
invitation goes to the new address, and the activity log records who changed what and why. Here a contract goes to a mistyped
address (prints its <code>sent_time</code>) and the party's link is kept:</p>
${step('correction', 1, SEND_TO_TYPO)}
<p>Changing the sent party is refused (prints <code>409</code> and the problem's type):</p>
${step('correction', 2, PUT_REFUSED)}
<p>The correction prints the new address; the old link then answers <code>404</code>:</p>
${step('correction', 3, CORRECTION)}
<p>A contract made with <code>"allow_delegation": true</code> also lets a party hand its turn to someone else from its signing page
("Someone else should sign"): the same happens (old link closed, new invitation, a <code>party.delegated</code> entry in the activity
log naming who, to whom and why, and the opt-in <code>contract.party_delegated</code> event).</p>
<h3 id="recipe-test-signing">Sign as a test party in your CI</h3>
<p>A contract with <code>"test_mode": true</code> can be answered for its parties by API (<a href="#testAnswerContractParty">test_answer</a>),
so that your tests walk the whole flow without a browser. Its signed PDF and audit trail say it was a test; a real contract refuses
this (409). Prints <code>true</code> twice: the party accepted, and the contract is signed.</p>
${step('test-signing', 1, TEST_SIGNING)}
</section>`;
}
