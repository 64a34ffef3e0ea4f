import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { signInClient } from '../helpers/session';
import {
  makeContract,
  mailsTo,
  signingClient,
  startSigningEnv,
  waitForMailsTo,
  type SigningEnv,
} from '../helpers/signing';
import { refusedPort } from '../helpers/webhook-receiver';

/** What the admin screens show must be true, and must not show what is a party's alone. */
describe('honest admin screens', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  it("never shows a party's one-time code in the outbox, in any field", async () => {
    const { t, smtp } = env;
    const contract = await makeContract(t, [{ name: 'Eva Nordin', email: 'eva.code@nordin.test' }], {
      require_auth: 'EMAIL_CODE',
    });
    expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
    const eva = signingClient(contract.parties[0]!.contract_url);
    expect((await eva.state()).status).toBe(200);
    expect((await eva.sendCode()).status).toBeLessThan(300);
    const mails = await waitForMailsTo(smtp, 'eva.code@nordin.test', 2);
    const codeMail = mails.find((mail) => /one-time code/.test(mail.mail.subject ?? ''));
    const code = /\b(\d{6})\b/.exec(codeMail?.mail.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(codeMail?.mail.subject).not.toContain(code);

    const outbox = await t.api('GET', '/api/outbox?per_page=100');
    const message = outbox.body.find((row: any) => row.purpose === 'code');
    expect(message.subject).toBe('Your one-time code for “Hyresavtal Storgatan 1”');
    expect(outbox.text).not.toContain(code as string);
    expect((await t.api('GET', message.self)).text).not.toContain(code as string);
  });

  it('tests the SMTP server in the form, saved or not, and leaves the saved one as it was', async () => {
    const { t, smtp } = env;
    const admin = await signInClient(t.url, 'admin', 'correct horse');
    const dead = `smtp://127.0.0.1:${await refusedPort()}`;
    expect((await admin.request('PUT', '/api/settings/messaging', { body: { smtp_url: dead } })).status).toBe(200);
    const viaSaved = await admin.request('POST', '/api/settings/messaging/test', { body: { to: 'it@office.test' } });
    expect(viaSaved.body.ok).toBe(false);
    const viaForm = await admin.request('POST', '/api/settings/messaging/test', {
      body: { to: 'it@office.test', smtp_url: smtp.url, mail_from: 'Test <test@office.test>' },
    });
    expect(viaForm.status).toBe(200);
    expect(viaForm.body.ok).toBe(true);
    await waitForMailsTo(smtp, 'it@office.test', 1);
    expect(mailsTo(smtp, 'it@office.test')[0]?.mail.from?.text).toContain('test@office.test');
    expect((await admin.request('GET', '/api/settings/messaging')).body.smtp_url).toBe(dead);
    const masked = await admin.request('POST', '/api/settings/messaging/test', {
      body: { to: 'it@office.test', smtp_url: 'smtp://user:********@127.0.0.1:25' },
    });
    expectProblem(masked, 400, 'validation-failed');
    expect((await admin.request('PUT', '/api/settings/messaging', { body: { smtp_url: null } })).status).toBe(200);
  });

  it('tells the admin UI which channels work: no SMS gateway, no SMS', async () => {
    const { t } = env;
    const admin = await signInClient(t.url, 'admin', 'correct horse');
    expect((await admin.request('GET', '/api/session')).body.channels).toEqual({ email: true, sms: false });
  });

  it('refuses unknown fields in the body of notify, like every other endpoint', async () => {
    const { t } = env;
    const contract = await makeContract(t, [{ name: 'Eva Nordin', email: 'eva.n@nordin.test' }]);
    expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
    const refused = await t.api('POST', `${contract.self}/notify`, { body: { urgent: true } });
    expectProblem(refused, 400, 'validation-failed');
    expect(refused.body.validation_errors.join()).toContain('urgent');
    expect((await t.api('POST', `${contract.self}/notify`, { body: {} })).status).toBe(200);
    expect((await t.api('POST', `${contract.self}/notify`)).status).toBe(200);
  });
});
