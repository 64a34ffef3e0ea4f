import { afterAll, beforeAll, expect } from 'vitest';
import type { Config } from '../../server/index';
import { makePdf } from './pdfs';
import { startTestServer, type TestServer } from './server';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './smtp-receiver';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/** A server wired to a real SMTP server and a verifying webhook consumer, as an office would run it. */
export type SigningEnv = {
  t: TestServer;
  smtp: SmtpReceiver;
  hooks: WebhookReceiver;
  close(): Promise<void>;
};

export async function startSigningEnv(overrides: Partial<Config> = {}): Promise<SigningEnv> {
  const smtp = await startSmtpReceiver();
  const hooks = await startWebhookReceiver();
  hooks.respond(() => 200);
  const t = await startTestServer({
    smtpUrl: smtp.url,
    mailFrom: 'SignDesk <office@example.test>',
    webhookFirstDelayS: 0,
    ...overrides,
  });
  const consumer = await t.api('POST', '/api/webhooks', { body: { url: `${hooks.url}/hooks` } });
  hooks.trust(consumer.body.key_id, consumer.body.public_key);
  return {
    t,
    smtp,
    hooks,
    close: async () => {
      await t.close();
      await smtp.close();
      await hooks.close();
    },
  };
}

export type PartySpec = {
  name: string;
  email?: string;
  mobile_phone?: string;
  identity_number?: string;
  delivery_method?: string;
  sign_type?: string;
  sign_order?: number;
  user?: string;
  /** Annotations of this party (defaults: a signature box on page 1). */
  fields?: Array<Record<string, unknown>>;
};

export type MadeContract = {
  self: string;
  id: number;
  parties: Array<{ self: string; contract_url: string; name: string }>;
};

/** A contract from an uploaded PDF with parties and their fields, made through the API. */
export async function makeContract(
  t: TestServer,
  parties: PartySpec[],
  settings: Record<string, unknown> = {},
  pages = 2,
): Promise<MadeContract> {
  const created = await t.api('POST', '/api/contracts', {
    raw: { data: await makePdf({ pages }), contentType: 'application/pdf' },
  });
  expect(created.status).toBe(201);
  const self = created.body.self as string;
  const changed = await t.api('PUT', self, { body: { name: 'Hyresavtal Storgatan 1', ...settings } });
  expect(changed.status, changed.text).toBe(200);
  const made: MadeContract['parties'] = [];
  for (const spec of parties) {
    const { fields, ...body } = spec;
    const party = await t.api('POST', `${self}/parties`, { body });
    expect(party.status, party.text).toBe(201);
    made.push(party.body);
    for (const field of fields ?? [{ type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 640, width: 200, height: 50 }]) {
      const annotation = await t.api('POST', `${self}/annotations`, {
        body: { party_id: party.body.self, input_required: true, ...field },
      });
      expect(annotation.status, annotation.text).toBe(201);
    }
  }
  return { self, id: Number(self.split('/').at(-1)), parties: made };
}

/** The signing link in a received invitation (text part). */
export function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]{43}(?:\/signed\.pdf)?/.exec(mail.mail.text ?? '');
  if (!match) throw new Error(`no signing link in: ${mail.mail.text}`);
  return match[0];
}

export function mailsTo(smtp: SmtpReceiver, address: string): ReceivedMail[] {
  return smtp.mails.filter((mail) => mail.envelopeTo.includes(address));
}

/** Waits until `address` has received `count` mails; returns them. */
export async function waitForMailsTo(smtp: SmtpReceiver, address: string, count: number): Promise<ReceivedMail[]> {
  await expect
    .poll(() => mailsTo(smtp, address).length, { timeout: 15_000, interval: 25 })
    .toBeGreaterThanOrEqual(count);
  return mailsTo(smtp, address);
}

/**
 * A party's browser-less client for its signing link: keeps its cookie and the page's CSRF
 * token. `options.fetch` (e.g. one trusting a test CA) and `options.headers` go with every request.
 */
export function signingClient(link: string, options: { fetch?: typeof fetch; headers?: Record<string, string> } = {}) {
  const send = options.fetch ?? fetch;
  let cookie = '';
  let csrf = '';
  const call = async (path: string, method = 'GET', body?: unknown, callOptions: { csrf?: string | null } = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (cookie) headers.cookie = cookie;
    const token = callOptions.csrf === undefined ? csrf : callOptions.csrf;
    if (method !== 'GET' && token !== null) headers['x-signing-csrf'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await send(`${link}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0] ?? '';
    const type = response.headers.get('content-type') ?? '';
    const data = type.includes('json') ? await response.json() : Buffer.from(await response.arrayBuffer());
    if (type.includes('json') && data && typeof data === 'object' && 'csrfToken' in data) csrf = String(data.csrfToken);
    return { status: response.status, headers: response.headers, body: data as any };
  };
  return {
    /** Opens the page as a browser does: the page, then its script's report that it is open (only that records it). */
    open: async () => {
      const page = await call('');
      const token = /"csrfToken":"([^"]+)"/.exec(Buffer.isBuffer(page.body) ? page.body.toString('utf8') : '')?.[1];
      if (page.status === 200 && token) {
        csrf = token;
        const reported = await call('/opened', 'POST');
        if (reported.status !== 204) throw new Error(`the page's opening report got ${reported.status}`);
      }
      return page;
    },
    state: () => call('/state'),
    document: () => call('/document.pdf'),
    signedPdf: () => call('/signed.pdf'),
    sendCode: () => call('/code', 'POST'),
    verify: (code: string) => call('/code/verify', 'POST', { code }),
    accept: (fields: Record<string, unknown> = {}, signatureName = 'Signer', options: { csrf?: string | null } = {}) =>
      call('/accept', 'POST', { fields, signatureName }, options),
    reject: (cause: string, options: { csrf?: string | null } = {}) => call('/reject', 'POST', { cause }, options),
    delegate: (body: Record<string, unknown>, options: { csrf?: string | null } = {}) =>
      call('/delegate', 'POST', body, options),
  };
}

/** Event types the webhook consumer verified, in arrival order. */
export function verifiedEvents(hooks: WebhookReceiver): Array<{ type: string; id: string; party?: string }> {
  return hooks.verified().map((request) => {
    const { id, party } = request.json.data;
    return { type: request.json.type, id, ...(party === undefined ? {} : { party }) };
  });
}

/** Event types the webhook consumer verified, in arrival order, with the name of the party each is about. */
export function verifiedPartyNames(hooks: WebhookReceiver, contractSelf: string): Array<[string, string | undefined]> {
  return hooks
    .verified()
    .filter((request) => request.json.data.id === contractSelf && request.json.data.party !== undefined)
    .map((request) => [request.json.type, request.json.data.party_name]);
}

/**
 * A test file's signing service and a second webhook receiver subscribed to opt-in `events` at
 * `path` (its key trusted, so `verifiedEvents` checks its deliveries): made before the file's
 * tests, closed after them. Its fields are set once `beforeAll` has run: read them in a test.
 */
export function useSigningEnvWithReceiver(
  path: string,
  events: string[],
): { env: SigningEnv; receiver: WebhookReceiver } {
  const suite = {} as { env: SigningEnv; receiver: WebhookReceiver };
  beforeAll(async () => {
    suite.env = await startSigningEnv();
    suite.receiver = await startWebhookReceiver();
    const consumer = await suite.env.t.api('POST', '/api/webhooks', {
      body: { url: `${suite.receiver.url}${path}`, events },
    });
    expect(consumer.status, consumer.text).toBe(201);
    suite.receiver.trust(consumer.body.key_id, consumer.body.public_key);
  });
  afterAll(async () => {
    await suite.env?.close();
    await suite.receiver?.close();
  });
  return suite;
}
