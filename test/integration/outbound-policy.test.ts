import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContract, signingClient } from '../helpers/signing';
import { startTestServer, type TestServer } from '../helpers/server';
import { rawSql } from '../../server/db/raw-sql';

/**
 * Where the server connects on a user's say (webhook URLs, the SMTP server and its test, the
 * SMS gateway): loopback and the office's LAN are fine, link-local (the cloud metadata
 * address), unspecified, multicast, broadcast, odd spellings of addresses and the server's
 * own port are not, on save and again at connect time.
 */
describe('the outbound address policy', () => {
  let t: TestServer;
  let port: number;
  beforeAll(async () => {
    t = await startTestServer({ webhookFirstDelayS: 0, webhookRetryScheduleS: [3600] });
    port = t.server.port;
  });
  afterAll(() => t.close());

  const refusedUrls = () =>
    [
      ['http://169.254.169.254/latest/meta-data/', /link-local/],
      ['http://[fe80::1]:8080/hooks', /link-local/],
      ['http://[fd00:ec2::254]/latest/meta-data/', /metadata/],
      ['http://0.0.0.0:8080/hooks', /unspecified/],
      ['http://[::]:8080/hooks', /unspecified/],
      ['http://224.0.0.1/hooks', /multicast/],
      ['http://[ff02::1]/hooks', /multicast/],
      ['http://255.255.255.255/hooks', /broadcast|reserved/],
      ['http://2852039166/latest/meta-data/', /four decimal numbers/],
      ['http://0xa9fea9fe/latest/meta-data/', /four decimal numbers/],
      ['http://0251.0376.0251.0376/latest/meta-data/', /four decimal numbers/],
      ['http://0xa9.254.169.254/', /four decimal numbers/],
      ['http://127.1:9/hooks', /four decimal numbers/],
      ['http://2130706433:9/hooks', /four decimal numbers/],
      ['http://[::ffff:169.254.169.254]/latest/meta-data/', /link-local/],
      ['http://[::ffff:a9fe:a9fe]/latest/meta-data/', /link-local/],
      [`http://127.0.0.1:${port}/api/users`, /this server's own/],
      [`http://localhost:${port}/api/users`, /this server's own/],
      [`http://[::1]:${port}/api/users`, /this server's own/],
    ] as const;

  it('refuses webhook URLs at such addresses when they are saved, saying why', async () => {
    const wrong: string[] = [];
    for (const [url, reason] of refusedUrls()) {
      const response = await t.api('POST', '/api/webhooks', { body: { url } });
      const line = response.body.validation_errors?.[0] ?? '';
      if (response.status !== 400 || !line.startsWith('url: ') || !reason.test(line))
        wrong.push(`${url}: ${response.status} ${line}`);
    }
    expect(wrong).toEqual([]);
    const kept = await t.api('POST', '/api/webhooks', { body: { url: 'http://127.0.0.1:9/hooks' } });
    const changed = await t.api('PUT', kept.body.self, { body: { url: 'http://169.254.169.254/latest/meta-data/' } });
    expect(changed.status).toBe(400);
    expect((await t.api('GET', kept.body.self)).body.url).toBe('http://127.0.0.1:9/hooks');
    await t.api('DELETE', kept.body.self);
  });

  it('takes loopback, LAN and internet addresses', async () => {
    for (const url of [
      'http://127.0.0.1:9/hooks',
      'http://localhost:9/hooks',
      'http://[::1]:9/hooks',
      'http://192.168.1.20/hooks',
      'http://10.0.0.7:8080/x',
      'https://hooks.example.com/x',
      'http://[fd12:3456::7]/x',
    ]) {
      const created = await t.api('POST', '/api/webhooks', { body: { url } });
      expect(created.status, `${url}: ${created.text}`).toBe(201);
      await t.api('DELETE', created.body.self);
    }
  });

  it('refuses an SMTP server or SMS gateway at such addresses', async () => {
    for (const body of [
      { smtp_url: 'smtp://169.254.169.254:25' },
      { smtp_url: 'smtps://0x7f000001:465' },
      { smtp_url: `smtp://127.0.0.1:${port}` },
      { sms_gateway_url: 'http://[::ffff:169.254.169.254]/sms' },
      { sms_gateway_url: `http://localhost:${port}/api/users` },
    ]) {
      const response = await t.api('PUT', '/api/settings/messaging', { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.validation_errors[0]).toMatch(new RegExp(`^${Object.keys(body)[0]}: `));
    }
    expect((await t.api('GET', '/api/settings/messaging')).body).toMatchObject({
      smtp_url: null,
      sms_gateway_url: null,
    });
  });

  it('refuses a timestamp authority at such addresses when it is saved, and keeps the one in force', async () => {
    const saved = await t.api('PUT', '/api/settings/timestamps', { body: { tsa_url: 'http://tsa.office.lan/tsr' } });
    expect(saved.status).toBe(200);
    for (const tsaUrl of ['http://169.254.169.254/tsr', 'http://0x7f000001/tsr', `http://127.0.0.1:${port}/tsr`]) {
      const response = await t.api('PUT', '/api/settings/timestamps', { body: { tsa_url: tsaUrl } });
      expect(response.status, tsaUrl).toBe(400);
      expect(response.body.validation_errors[0]).toMatch(/^tsa_url: /);
    }
    expect((await t.api('GET', '/api/settings/timestamps')).body.tsa_url).toBe('http://tsa.office.lan/tsr');
    expect((await t.api('PUT', '/api/settings/timestamps', { body: { tsa_url: null } })).status).toBe(200);
  });

  it('checks again at connect time: a stored URL to this server reaches nothing, and the error maps no network', async () => {
    // As if saved by an older version: straight into the database.
    const consumer = await t.api('POST', '/api/webhooks', { body: { url: 'http://127.0.0.1:9/hooks' } });
    const consumerId = Number(consumer.body.self.split('/').at(-1));
    const sqlite = rawSql(t.server.ctx.db);
    await sqlite.run(
      'UPDATE webhook_consumers SET url = ? WHERE id = ?',
      `http://localhost:${port}/api/users`,
      consumerId,
    );
    const smtp = await t.api('PUT', '/api/settings/messaging', {
      body: { smtp_url: 'smtp://127.0.0.1:25', mail_from: 'office@example.test' },
    });
    expect(smtp.status).toBe(200);
    await sqlite.run("UPDATE settings SET value = ? WHERE key = 'messaging.smtp_url'", `smtp://localhost:${port}`);

    const contract = await makeContract(t, [{ name: 'Eva', email: 'eva@example.test' }]);
    await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const eva = signingClient(contract.parties[0]!.contract_url);
    await eva.state();
    expect((await eva.accept({}, 'Eva')).status).toBe(200);
    let attempt: { status_code: number | null; response_excerpt: string; error: string | null } | undefined;
    await expect
      .poll(
        async () => {
          const events = (await t.api('GET', `${consumer.body.self}/events`)).body as Array<{
            attempts: NonNullable<typeof attempt>[];
          }>;
          attempt = events.find((entry) => entry.attempts.length > 0)?.attempts[0];
          return attempt !== undefined;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(true);
    expect(attempt).toMatchObject({ status_code: null, response_excerpt: '' });
    expect(attempt?.error).toMatch(/outbound address policy/);
    expect(attempt?.error).not.toMatch(/127\.0\.0\.1|::1/);

    const test = await t.api('POST', '/api/settings/messaging/test', { body: { to: 'office@example.test' } });
    expect(test.body.ok).toBe(false);
    expect(test.body.error).toMatch(/outbound address policy/);
    expect(test.body.response).toBeNull();
  });
});
