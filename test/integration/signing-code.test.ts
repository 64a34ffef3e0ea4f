import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContract, signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { rawSql } from '../../server/db/raw-sql';

/**
 * EMAIL_CODE / SMS_CODE guard everything a link reveals for the link's whole life: before the
 * party's turn, after it answered, once the contract is complete, rejected or expired. A
 * browser that entered the code keeps a short session; a link opened later asks again.
 */
describe('the one-time code of a signing link', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(() => env.close());

  /** What a bare link (no cookie) may learn: the code page's needs, nothing of the document. */
  async function expectSealed(link: string, attachmentId: number) {
    const stranger = signingClient(link);
    const state = await stranger.state();
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      stage: 'needs-code',
      fields: [],
      attachments: [],
      contract: { pages: [], signedPdfUrl: null },
      embedding: { contract: null, party: null },
    });
    expect(JSON.stringify(state.body)).not.toContain('salary');
    expect(JSON.stringify(state.body)).not.toContain('/api/');
    for (const path of ['/document.pdf', '/signed.pdf', `/attachments/${attachmentId}`]) {
      const response = await fetch(`${link}${path}`);
      expect(response.status, path).toBe(403);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
    }
    return stranger;
  }

  /** A fresh code for this client, read from the mail it caused. */
  async function verify(client: ReturnType<typeof signingClient>, email: string) {
    // The code is in the mail's text only (never its subject, which the outbox shows).
    const codeMails = () =>
      env.smtp.mails.filter(
        (mail) => mail.envelopeTo.includes(email) && /one-time code/i.test(mail.mail.subject ?? ''),
      );
    const before = codeMails().length;
    await client.state();
    const asked = await client.sendCode();
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    await expect.poll(() => codeMails().length, { timeout: 15_000, interval: 25 }).toBe(before + 1);
    const code = /Enter the code (\d{6})/.exec(codeMails().at(-1)?.mail.text ?? '')?.[1] as string;
    const verified = await client.verify(code);
    expect(verified.status).toBe(200);
    return verified;
  }

  /** A one-party contract guarded by EMAIL_CODE, sent without mail: it and a client of the party's link. */
  async function sentWithCode(name: string, email: string) {
    const contract = await makeContract(env.t, [{ name, email }], { require_auth: 'EMAIL_CODE' });
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    return { contract, client: signingClient(contract.parties[0]!.contract_url) };
  }

  it('guards the document before the turn, after signing, and once complete', async () => {
    const { t } = env;
    const contract = await makeContract(
      t,
      [
        { name: 'Ada', email: 'ada@example.test' },
        { name: 'Bo', email: 'bo@example.test' },
      ],
      {
        require_auth: 'EMAIL_CODE',
        party_order_defined: true,
      },
    );
    const attachment = await t.api('POST', `${contract.self}/attachments`, {
      raw: { data: 'salary annex: 40 000 kr', contentType: 'text/plain' },
      headers: { 'content-disposition': 'attachment; filename="salary-annex.txt"' },
    });
    const attachmentId = Number(attachment.body.self.split('/').at(-1));
    expect((await t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
    const [ada, bo] = contract.parties.map((party) => party.contract_url) as [string, string];

    // Bo waits for Ada: his bare link shows nothing of the document.
    await expectSealed(bo, attachmentId);

    const adaBrowser = signingClient(ada);
    await verify(adaBrowser, 'ada@example.test');
    expect((await adaBrowser.document()).status).toBe(200);
    expect((await adaBrowser.accept({}, 'Ada')).status).toBe(200);
    // After signing: her browser still sees it, the bare link does not.
    expect((await adaBrowser.document()).status).toBe(200);
    await expectSealed(ada, attachmentId);

    // Waiting for his turn, a verified Bo sees the document but cannot answer yet; then he signs.
    const boBrowser = signingClient(bo);
    await verify(boBrowser, 'bo@example.test');
    expect((await boBrowser.accept({}, 'Bo')).status).toBe(200);
    expect((await boBrowser.state()).body.stage).toBe('completed');
    expect((await boBrowser.signedPdf()).status).toBe(200);

    // Complete: the bare links reveal nothing; a code opens the signed PDF again.
    for (const link of [ada, bo]) await expectSealed(link, attachmentId);
    // A new code may be asked 30 s after the last one: as if Ada came back a minute later.
    await rawSql(t.server.ctx.db).run('UPDATE party_codes SET sent_at = sent_at - 60000');
    const adaLater = signingClient(ada);
    const again = await verify(adaLater, 'ada@example.test');
    expect(again.body.stage).toBe('completed');
    expect((await adaLater.signedPdf()).status).toBe(200);
  });

  it('guards a rejected and an expired contract too', async () => {
    const { t } = env;
    const rejected = await makeContract(t, [{ name: 'Cai', email: 'cai@example.test' }], {
      require_auth: 'EMAIL_CODE',
    });
    const note = await t.api('POST', `${rejected.self}/attachments`, {
      raw: { data: 'salary note', contentType: 'text/plain' },
      headers: { 'content-disposition': 'attachment; filename="note.txt"' },
    });
    await t.api('POST', `${rejected.self}/send`, { body: { silent: true } });
    const cai = signingClient(rejected.parties[0]!.contract_url);
    await verify(cai, 'cai@example.test');
    expect((await cai.reject('Wrong salary')).status).toBe(200);
    await expectSealed(rejected.parties[0]!.contract_url, Number(note.body.self.split('/').at(-1)));

    const expiring = await makeContract(t, [{ name: 'Dag', email: 'dag@example.test' }], {
      require_auth: 'EMAIL_CODE',
      expire_time: '2099-01-01 00:00:00',
    });
    const file = await t.api('POST', `${expiring.self}/attachments`, {
      raw: { data: 'salary table', contentType: 'text/plain' },
      headers: { 'content-disposition': 'attachment; filename="table.txt"' },
    });
    await t.api('POST', `${expiring.self}/send`, { body: { silent: true } });
    t.clock.set(Date.parse('2099-01-02T00:00:00Z'));
    try {
      await expectSealed(expiring.parties[0]!.contract_url, Number(file.body.self.split('/').at(-1)));
    } finally {
      t.clock.reset();
    }
  });

  it('asks an address for every party, viewers included, before sending', async () => {
    const { t } = env;
    const contract = await makeContract(t, [{ name: 'Fia', email: 'fia@example.test' }], { require_auth: 'SMS_CODE' });
    const viewer = await t.api('POST', `${contract.self}/parties`, {
      body: { name: 'Gus', email: 'gus@example.test', sign_type: 'VIEWER' },
    });
    const party = contract.parties[0]!.self;
    await t.api('PUT', party, { body: { mobile_phone: '+46701234567' } });
    const refused = await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    expect(refused.status).toBe(400);
    expect(refused.body.validation_errors).toEqual([
      `parties.${viewer.body.self.split('/').at(-1)}.mobile_phone: is needed for require_auth SMS_CODE`,
    ]);
  });

  it('keeps a verified browser for a short while only: a link opened later asks for a fresh code', async () => {
    const { t } = env;
    const { contract, client: eli } = await sentWithCode('Eli', 'eli@example.test');
    expect((await eli.state()).body.embedding).toMatchObject({ contract: null, party: null });
    await verify(eli, 'eli@example.test');
    // Identified, the page may name the contract and the party to the page that frames it.
    expect((await eli.state()).body.embedding).toMatchObject({
      contract: contract.self,
      party: contract.parties[0]!.self,
    });
    const started = t.clock.now();
    try {
      // In use, the session slides: 20 minutes later, and 20 more, it still works.
      t.clock.set(started + 20 * 60_000);
      expect((await eli.document()).status).toBe(200);
      t.clock.set(started + 40 * 60_000);
      expect((await eli.document()).status).toBe(200);
      // Left alone for more than half an hour, the browser must enter a new code.
      t.clock.set(started + 75 * 60_000);
      expect((await eli.document()).status).toBe(403);
      expect((await eli.state()).body.stage).toBe('needs-code');
    } finally {
      t.clock.reset();
    }
  });

  it('logs every wrong guess, but a check that can change nothing only once while it repeats', async () => {
    const { t } = env;
    const { contract, client: fia } = await sentWithCode('Fia', 'fia@example.test');
    await fia.state();
    const failures = async () =>
      (
        (await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as Array<{
          event: string;
          details: { reason?: string };
        }>
      )
        .filter((entry) => entry.event === 'party.code_failed')
        .map((entry) => entry.details.reason)
        .reverse();
    // A link's tries before any code was sent: refused each time, logged once.
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await fia.verify('123456')).status).toBe(400);
    expect(await failures()).toEqual(['no code was sent']);
    // With a code sent, every wrong guess counts and is logged; once spent, the refusals are logged once more.
    expect((await fia.sendCode()).status).toBe(200);
    for (let attempt = 0; attempt < 8; attempt += 1) await fia.verify('000000');
    expect(await failures()).toEqual([
      'no code was sent',
      ...[1, 2, 3, 4, 5].map((guess) => `wrong code (guess ${guess} of 5)`),
      'the code was spent by wrong guesses',
    ]);
  });

  it('answers the sixth code in an hour with 429 and a Retry-After counting to the end of that hour', async () => {
    const { t } = env;
    const { client: hal } = await sentWithCode('Hal Hour', 'hal@example.test');
    await hal.state();
    try {
      for (let send = 0; send < 5; send += 1) {
        t.clock.shift(send * 31_000);
        expect((await hal.sendCode()).status).toBe(200);
      }
      t.clock.shift(5 * 31_000);
      const refused = await hal.sendCode();
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(3600 - 5 * 31 - 5);
      expect(wait).toBeLessThanOrEqual(3600 - 5 * 31);
      expect(refused.body.detail).toContain(`try again in ${wait} s`);
    } finally {
      t.clock.reset();
    }
  });
});
