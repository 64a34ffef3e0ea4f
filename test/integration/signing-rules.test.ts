import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { formatTimestamp } from '../../shared/time';
import { cli } from '../helpers/server';
import {
  linkIn,
  mailsTo,
  makeContract,
  signingClient,
  startSigningEnv,
  waitForMailsTo,
  type SigningEnv,
} from '../helpers/signing';

describe('signing rules', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(() => env.close());

  it('closes the links when expire_time passes: 409 on answers, the document and reminders, one contract.expired entry, still sent', async () => {
    const { t } = env;
    const expireAt = Math.ceil((t.clock.now() + 3_600_000) / 1000) * 1000;
    const contract = await makeContract(t, [{ name: 'Erik', email: 'erik@example.test' }], {
      expire_time: formatTimestamp(expireAt, 'Europe/Stockholm'),
    });
    await t.api('POST', `${contract.self}/send`);
    // The server's clock passes the expiry; the expiry job is due at once (the runner sleeps ≤ 1 s).
    t.clock.shift(expireAt - Date.now() + 1_000);
    onTestFinished(() => t.clock.reset());
    const erik = signingClient(contract.parties[0]!.contract_url);
    await expect.poll(async () => (await erik.state()).body.stage, { timeout: 20_000, interval: 100 }).toBe('expired');
    expect((await erik.accept({}, 'Erik')).status).toBe(409);
    // The links close: the document is no longer served, and the page's state shows none of it.
    expect((await erik.document()).status).toBe(409);
    expect((await erik.state()).body).toMatchObject({
      contract: { pages: [], pageImages: null },
      fields: [],
      attachments: [],
    });
    const notify = await t.api('POST', `${contract.self}/notify`);
    expect(notify.status).toBe(409);
    expect(notify.body.type).toMatch(/#contract-state$/);
    await expect
      .poll(
        async () =>
          (await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body.map(
            (entry: { event: string }) => entry.event,
          ),
        { timeout: 5_000 },
      )
      .toContain('contract.expired');
    const log = (await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body;
    const expired = log.filter((entry: { event: string }) => entry.event === 'contract.expired');
    expect(expired).toEqual([expect.objectContaining({ user_agent: '', ip_address: '' })]);
    expect((await t.api('GET', contract.self)).body).toMatchObject({
      is_answered: false,
      is_signed: false,
      is_rejected: false,
    });
    expect(
      (await t.api('GET', '/api/contracts?status=sent&per_page=100')).body.map((row: { self: string }) => row.self),
    ).toContain(contract.self);
  });

  it('refuses to send a contract whose expire_time has passed while it was a draft', async () => {
    const { t } = env;
    const soon = Math.ceil((t.clock.now() + 3_600_000) / 1000) * 1000;
    const contract = await makeContract(t, [{ name: 'Late', email: 'late@example.test' }], {
      expire_time: formatTimestamp(soon, 'Europe/Stockholm'),
    });
    t.clock.shift(soon - Date.now() + 1_000);
    onTestFinished(() => t.clock.reset());
    const response = await t.api('POST', `${contract.self}/send`);
    expect(response.status).toBe(400);
    expect(response.body.validation_errors).toEqual(['expire_time: is in the past']);
    expect((await t.api('GET', contract.self)).body.sent_time).toBeNull();
  });

  it('reminds only the parties in turn, and refuses reminders once signed', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(
      t,
      [
        { name: 'Frida', email: 'frida@example.test', sign_order: 1 },
        { name: 'Gustav', email: 'gustav@example.test', sign_order: 2 },
      ],
      { party_order_defined: true },
    );
    expect((await t.api('POST', `${contract.self}/notify`)).status).toBe(409);
    await t.api('POST', `${contract.self}/send`);
    await waitForMailsTo(smtp, 'frida@example.test', 1);
    const reminded = await t.api('POST', `${contract.self}/notify`);
    expect(reminded.status).toBe(200);
    expect(reminded.body.self).toBe(contract.self);
    const [, reminder] = await waitForMailsTo(smtp, 'frida@example.test', 2);
    expect(reminder?.mail.subject).toMatch(/^Reminder: /);
    expect(mailsTo(smtp, 'gustav@example.test')).toHaveLength(0);
    for (const party of contract.parties) {
      const client = signingClient(party.contract_url);
      await client.state();
      expect((await client.accept({}, party.name)).status).toBe(200);
    }
    expect((await t.api('POST', `${contract.self}/notify`)).status).toBe(409);
    const events = (await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body.map(
      (entry: { event: string }) => entry.event,
    );
    expect(events).toContain('party.reminded');
  });

  it('sends nothing at all for a contract sent with silent: true: no invitation, no next-in-turn invitation, no completion or rejection mail', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(
      t,
      [
        { name: 'Hanna', email: 'hanna.silent@example.test', sign_order: 1 },
        { name: 'Ida', email: 'ida.silent@example.test', sign_order: 2 },
      ],
      { party_order_defined: true },
    );
    const sent = await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    expect(sent.status).toBe(200);
    const hanna = signingClient(contract.parties[0]!.contract_url);
    expect((await hanna.state()).body.stage).toBe('ready');
    expect((await hanna.accept({}, 'Hanna')).status).toBe(200);
    const ida = signingClient(contract.parties[1]!.contract_url);
    expect((await ida.state()).body.stage).toBe('ready');
    expect((await ida.accept({}, 'Ida')).status).toBe(200);
    expect((await t.api('GET', contract.self)).body).toMatchObject({ is_signed: true });
    const rejected = await makeContract(t, [{ name: 'Jonna', email: 'jonna.silent@example.test' }]);
    await t.api('POST', `${rejected.self}/send`, { body: { silent: true } });
    const jonna = signingClient(rejected.parties[0]!.contract_url);
    await jonna.state();
    expect((await jonna.reject('No thanks')).status).toBe(200);
    // The outbox is the whole truth: not one message was written for either contract.
    const written = (await t.api('GET', '/api/outbox?per_page=100')).body as Array<{
      contract?: string | null;
      to?: unknown;
    }>;
    const mentioning = JSON.stringify(written);
    expect(mentioning).not.toContain('silent@example.test');
    expect(
      written.filter((message) => [contract.self, rejected.self].includes(String(message.contract ?? ''))),
    ).toEqual([]);
    expect(mailsTo(smtp, 'hanna.silent@example.test')).toEqual([]);
    expect(mailsTo(smtp, 'ida.silent@example.test')).toEqual([]);
  });

  it('with auto_sign signs at once the parties whose user is the acting user', async () => {
    const { t, smtp } = env;
    const clerk = await t.api('POST', '/api/users', { body: { username: 'auto-clerk', email: 'clerk@office.test' } });
    // The clerk's own contract, made by the administrator's token acting as the clerk.
    const asClerk = {
      ...t,
      api: ((method, path, options = {}) =>
        t.api(method, path, {
          ...options,
          headers: { 'api-user-uri': clerk.body.self, ...options.headers },
        })) as typeof t.api,
    };
    const contract = await makeContract(asClerk, [
      { name: 'Office clerk', email: 'clerk@office.test', user: clerk.body.self },
      { name: 'Ivar', email: 'ivar@example.test' },
    ]);
    const sent = await t.api('POST', `${contract.self}/send`, {
      body: { auto_sign: true },
      headers: { 'api-user-uri': clerk.body.self },
    });
    expect(sent.status).toBe(200);
    const parties = (await asClerk.api('GET', `${contract.self}/parties`)).body;
    const clerkParty = parties.find((party: { name: string }) => party.name === 'Office clerk');
    expect(clerkParty).toMatchObject({ is_accept: true, sign_time: expect.stringMatching(/^\d{4}-/) });
    await waitForMailsTo(smtp, 'ivar@example.test', 1);
    expect(mailsTo(smtp, 'clerk@office.test').filter((mail) => /to sign/.test(mail.mail.subject ?? ''))).toHaveLength(
      0,
    );

    const alone = await makeContract(t, [{ name: 'Only me', email: 'admin@office.test', user: t.adminPath }]);
    const signedAtOnce = await t.api('POST', `${alone.self}/send`, { body: { auto_sign: true } });
    expect(signedAtOnce.body).toMatchObject({ is_signed: true, is_answered: true });
    expect((await t.api('GET', `${alone.self}/signed_pdf`)).status).toBe(200);
  });

  it('asks for a one-time code with EMAIL_CODE: no document before it, wrong codes refused, five spend it', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(t, [{ name: 'Jonna', email: 'jonna@example.test' }], {
      require_auth: 'EMAIL_CODE',
    });
    await t.api('POST', `${contract.self}/send`);
    const jonna = signingClient(linkIn((await waitForMailsTo(smtp, 'jonna@example.test', 1))[0]!));
    const state = await jonna.state();
    expect(state.body).toMatchObject({ stage: 'needs-code', codeSentTo: null, fields: [], contract: { pages: [] } });
    expect((await jonna.document()).status).toBe(403);
    expect((await jonna.accept({}, 'Jonna')).status).toBe(403);
    const asked = await jonna.sendCode();
    expect(asked.body.codeSentTo).toBe('j***@example.test');
    expect((await jonna.sendCode()).status).toBe(429);
    const [, codeMail] = await waitForMailsTo(smtp, 'jonna@example.test', 2);
    const code = /\b(\d{6})\b/.exec(codeMail?.mail.text ?? '')?.[1] as string;
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await jonna.verify(wrong);
    expect(refused.status).toBe(400);
    expect(refused.body.validation_errors).toEqual(['code: is not right or has expired']);
    expect((await jonna.verify('12ab')).status).toBe(400);
    const verified = await jonna.verify(code);
    expect(verified.status).toBe(200);
    expect(verified.body.stage).toBe('ready');
    expect((await jonna.document()).status).toBe(200);
    expect((await jonna.verify(code)).status).toBe(400);
    expect((await jonna.accept({}, 'Jonna')).status).toBe(200);

    const other = await makeContract(t, [{ name: 'Kim', email: 'kim@example.test' }], { require_auth: 'EMAIL_CODE' });
    await t.api('POST', `${other.self}/send`);
    const kim = signingClient(other.parties[0]!.contract_url);
    await kim.state();
    await kim.sendCode();
    const kimCode = /\b(\d{6})\b/.exec(
      (await waitForMailsTo(smtp, 'kim@example.test', 2))[1]?.mail.text ?? '',
    )?.[1] as string;
    for (let guess = 0; guess < 5; guess += 1) await kim.verify(kimCode === '000000' ? '999999' : '000000');
    expect((await kim.verify(kimCode)).status).toBe(400);
  });

  it('refuses bad links, missing CSRF tokens and answers out of place, changing nothing', async () => {
    const { t } = env;
    expect((await fetch(`${t.url}/sign/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${t.url}/sign/short`)).status).toBe(404);
    expect((await fetch(`${t.url}/sign/${'A'.repeat(43)}/state`)).status).toBe(404);
    const draft = await makeContract(t, [{ name: 'Lars', email: 'lars@example.test' }]);
    const lars = signingClient(draft.parties[0]!.contract_url);
    expect((await lars.state()).body.stage).toBe('draft');
    expect((await lars.document()).status).toBe(403);
    expect((await lars.accept({}, 'Lars')).status).toBe(409);
    await t.api('POST', `${draft.self}/send`);
    expect((await lars.accept({}, 'Lars', { csrf: null })).status).toBe(403);
    expect((await lars.accept({}, 'Lars', { csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await lars.accept({ 999999: 'x' }, 'Lars')).body.validation_errors).toEqual([
      'fields.999999: is not one of your fields',
    ]);
    expect((await lars.accept({}, '')).status).toBe(400);
    expect((await lars.signedPdf()).status).toBe(409);
    const party = await t.api('GET', draft.parties[0]!.self);
    expect(party.body.is_accept).toBe(false);
    const viewerContract = await makeContract(t, [
      { name: 'Maja', email: 'maja@example.test' },
      { name: 'Nils viewer', email: 'nils@example.test', sign_type: 'VIEWER', fields: [] },
    ]);
    await t.api('POST', `${viewerContract.self}/send`);
    const nils = signingClient(viewerContract.parties[1]!.contract_url);
    expect((await nils.state()).body.stage).toBe('ready');
    expect((await nils.accept({}, 'Nils')).status).toBe(409);
    const maja = signingClient(viewerContract.parties[0]!.contract_url);
    await maja.state();
    expect((await maja.accept({}, 'Maja')).body.stage).toBe('completed');
    expect((await nils.state()).body.stage).toBe('completed');
  });

  it('records a bounce on the party when the SMTP server refuses its address', async () => {
    const { t } = env;
    const { startSmtpReceiver } = await import('../helpers/smtp-receiver');
    const refusing = await startSmtpReceiver({
      onRcpt: (address) => (address.startsWith('nobody@') ? { code: 550, message: '5.1.1 No such user' } : undefined),
    });
    try {
      const put = await t.api('PUT', '/api/settings/messaging', { body: { smtp_url: refusing.url } });
      expect(put.status).toBe(200);
      const contract = await makeContract(t, [{ name: 'Nobody', email: 'nobody@example.test' }]);
      await t.api('POST', `${contract.self}/send`);
      await expect
        .poll(async () => (await t.api('GET', contract.parties[0]!.self)).body.email_status, { timeout: 10_000 })
        .toMatchObject({ bounced: true, hardbounced: true, sent: false });
    } finally {
      await t.api('PUT', '/api/settings/messaging', { body: { smtp_url: env.smtp.url } });
      await refusing.close();
    }
    expect((await cli(t.dataDir, ['token', 'create', '--name', 'still-works'])).code).toBe(0);
  });
});
