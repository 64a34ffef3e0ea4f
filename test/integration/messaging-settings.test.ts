import type { TProblem } from '../../shared/api/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';

function expectValidation(response: { status: number; headers: Headers; body: TProblem }, lines: string[]) {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.body.type).toMatch(/#validation-failed$/);
  expect(response.body.validation_errors).toEqual(lines);
}

describe('mail and SMS settings', () => {
  let smtp: SmtpReceiver;
  let t: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpReceiver({
      auth: { user: 'office', pass: 'pa:ss wörd' },
      onRcpt: (address) => (address.startsWith('nobody@') ? { code: 550, message: '5.1.1 No such user' } : undefined),
    });
    t = await startTestServer({
      smtpUrl: 'smtp://env-user:env-secret@127.0.0.1:1',
      mailFrom: 'Env Office <env@example.test>',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('shows the environment values with the password masked', async () => {
    const response = await t.api('GET', '/api/settings/messaging');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      smtp_url: 'smtp://env-user:********@127.0.0.1:1',
      mail_from: 'Env Office <env@example.test>',
      sms_gateway_url: null,
      sources: { smtp_url: 'environment', mail_from: 'environment', sms_gateway_url: null },
    });
    expect(response.text).not.toContain('env-secret');
  });

  it('refuses bad values with one line per field and changes nothing', async () => {
    const before = (await t.api('GET', '/api/settings/messaging')).body;
    expectValidation(
      await t.api('PUT', '/api/settings/messaging', {
        body: {
          smtp_url: 'http://mail.example.test',
          mail_from: 'not an address',
          sms_gateway_url: 'ftp://gw.example.test',
        },
      }),
      [
        'smtp_url: must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:password@mail.example.com:465',
        'mail_from: must be an e-mail address, optionally with a name: Office <office@example.com>',
        'sms_gateway_url: must be an http:// or https:// URL',
      ],
    );
    expectValidation(await t.api('PUT', '/api/settings/messaging', { body: { smtp_url: 25 } }), [
      'smtp_url: must be a string',
    ]);
    expectValidation(await t.api('PUT', '/api/settings/messaging', { body: { smtp_url: '' } }), [
      'smtp_url: must not be empty',
    ]);
    expectValidation(await t.api('PUT', '/api/settings/messaging', { body: { smtp_host: 'mail.example.test' } }), [
      'smtp_host: unknown field',
    ]);
    expectValidation(
      await t.api('PUT', '/api/settings/messaging', { body: { mail_from: `${'a'.repeat(996)}@x.se` } }),
      ['mail_from: must be at most 1000 characters'],
    );
    expectValidation(
      await t.api('PUT', '/api/settings/messaging', {
        body: { sms_gateway_url: 'https://gw:********@sms.example.test/send' },
      }),
      ['sms_gateway_url: ******** stands for a saved password, but none is saved; send the password itself'],
    );
    const wrongType = await t.api('PUT', '/api/settings/messaging', {
      raw: { data: 'smtp_url=x', contentType: 'text/plain' },
    });
    expect(wrongType.status).toBe(415);
    expect((await t.api('GET', '/api/settings/messaging')).body).toEqual(before);
  });

  it('saves a URL, masks its password, and keeps the password when the mask is sent back', async () => {
    const put = await t.api('PUT', '/api/settings/messaging', {
      body: { smtp_url: smtp.url, mail_from: 'Kontoret <kontoret@example.test>' },
    });
    expect(put.status).toBe(200);
    expect(put.body.smtp_url).toBe(`smtp://office:********@127.0.0.1:${smtp.port}`);
    expect(put.body.sources).toEqual({ smtp_url: 'settings', mail_from: 'settings', sms_gateway_url: null });
    expect(put.text).not.toContain('w%C3%B6rd');

    // The admin UI sends back what it read, with another sender.
    const again = await t.api('PUT', '/api/settings/messaging', {
      body: { smtp_url: put.body.smtp_url, mail_from: 'Kontoret i Åre <kontoret@example.test>' },
    });
    expect(again.status).toBe(200);
    expect(again.body.smtp_url).toBe(put.body.smtp_url);

    const test = await t.api('POST', '/api/settings/messaging/test', { body: { to: 'admin@example.test' } });
    expect(test.status).toBe(200);
    expect(test.body.ok).toBe(true);
    expect(test.body.error).toBeNull();
    expect(test.body.response).toMatch(/^250 /);
    expect(test.body.message).toMatchObject({
      purpose: 'settings-test',
      state: 'sent',
      to: 'admin@example.test',
      attempts: 1,
    });
    const [received] = await smtp.waitForMails(1);
    expect(received!.mail.from?.value).toEqual([{ name: 'Kontoret i Åre', address: 'kontoret@example.test' }]);
    expect(received!.mail.subject).toBe('SignDesk test e-mail');
    expect(received!.mail.text).toContain('SignDesk can send e-mail');
    expect(received!.mail.html).toContain('SignDesk can send e-mail');
  });

  it('answers a test with what the server said when it refuses', async () => {
    const refused = await t.api('POST', '/api/settings/messaging/test', { body: { to: 'nobody@example.test' } });
    expect(refused.status).toBe(200);
    expect(refused.body.ok).toBe(false);
    expect(refused.body.response).toMatch(/^550 5\.1\.1 No such user/);
    expect(refused.body.message.state).toBe('bounced');

    const wrongPassword = smtp.url.replace('pa%3Ass%20w%C3%B6rd', 'wrong');
    expect((await t.api('PUT', '/api/settings/messaging', { body: { smtp_url: wrongPassword } })).status).toBe(200);
    const denied = await t.api('POST', '/api/settings/messaging/test', { body: { to: 'admin@example.test' } });
    expect(denied.body.ok).toBe(false);
    expect(denied.body.error).toMatch(/535/);
    expect(denied.body.message.state).toBe('failed');
  });

  it('refuses a bad test address', async () => {
    expectValidation(await t.api('POST', '/api/settings/messaging/test', { body: { to: 'nobody' } }), [
      'to: must be a valid email',
    ]);
    expectValidation(await t.api('POST', '/api/settings/messaging/test', { body: {} }), ['to: is required']);
  });

  it('goes back to the environment value when a setting is set to null', async () => {
    const response = await t.api('PUT', '/api/settings/messaging', { body: { smtp_url: null, mail_from: null } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      smtp_url: 'smtp://env-user:********@127.0.0.1:1',
      mail_from: 'Env Office <env@example.test>',
      sources: { smtp_url: 'environment', mail_from: 'environment' },
    });
  });

  it('answers 409 to a test when no SMTP server is configured', async () => {
    const bare = await startTestServer();
    try {
      const response = await bare.api('POST', '/api/settings/messaging/test', { body: { to: 'admin@example.test' } });
      expect(response.status).toBe(409);
      expect(response.body.detail).toMatch(/No SMTP server is configured/);
      expect((await bare.api('GET', '/api/outbox')).body).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
