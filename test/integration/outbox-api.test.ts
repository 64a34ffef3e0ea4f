import type { TOutboxMessage, TOutboxRecipient } from '../../shared/api/outbox';
import { expectProblem } from '../helpers/problems';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queueMail, queueSms, waitForOutboxState } from '../helpers/outbox';
import { cli, linkOf, startTestServer, type TestServer } from '../helpers/server';
import { startSmsGateway, type SmsGateway } from '../helpers/sms-gateway';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';

async function customerKey(t: TestServer): Promise<string> {
  await cli(t.dataDir, [
    'user',
    'create',
    '--username',
    'clerk',
    '--password',
    'long enough',
    '--email',
    'clerk@office.test',
  ]);
  const token = await cli(t.dataDir, ['token', 'create', '--name', 'clerk', '--user', 'clerk', '--rate-limit', '1000']);
  return token.out.at(-1) as string;
}

describe('the outbox list', () => {
  let t: TestServer;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    for (let n = 1; n <= 12; n += 1)
      ids.push(await queueMail(t.server, { to: `party${n}@example.test`, subject: `Mail ${n}` }));
    for (let n = 1; n <= 3; n += 1) ids.push(await queueSms(t.server, { to: `+4670000000${n}` }));
    await vi.waitFor(
      async () => {
        const waiting = await t.api('GET', '/api/outbox?state=waiting-for-config');
        if (waiting.headers.get('pagination-items-total') !== '15') throw new Error('not all are waiting yet');
      },
      { timeout: 15_000, interval: 25 },
    );
  });
  afterAll(() => t.close());

  it('counts the messages not yet delivered', async () => {
    expect(await t.server.ctx.repos.outbox.countPending()).toBe(15);
  });

  it('pages newest first with Link headers', async () => {
    const first = await t.api('GET', '/api/outbox');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(10);
    expect(first.headers.get('pagination-items-total')).toBe('15');
    expect(first.headers.get('pagination-num-pages')).toBe('2');
    expect(first.body.map((m: TOutboxMessage) => m.self)).toEqual(
      [...ids]
        .reverse()
        .slice(0, 10)
        .map((id) => `/api/outbox/${id}`),
    );
    const next = linkOf(first.headers, 'next');
    expect(next).toBeDefined();
    const second = await t.api('GET', next!);
    expect(second.body.map((m: TOutboxMessage) => m.self)).toEqual(
      [...ids]
        .reverse()
        .slice(10)
        .map((id) => `/api/outbox/${id}`),
    );
    expect(second.headers.get('pagination-page')).toBe('2');
    expect(linkOf(second.headers, 'next')).toBeUndefined();
    expect(linkOf(second.headers, 'previous')).toBeDefined();
  });

  it('filters by channel and state', async () => {
    const sms = await t.api('GET', '/api/outbox?channel=sms');
    expect(sms.body.map((m: TOutboxMessage) => m.channel)).toEqual(['sms', 'sms', 'sms']);
    const mail = await t.api('GET', '/api/outbox?channel=email&state=waiting-for-config&per_page=5');
    expect(mail.body).toHaveLength(5);
    expect(mail.headers.get('pagination-items-total')).toBe('12');
    const next = await t.api('GET', linkOf(mail.headers, 'next')!);
    expect(next.body.every((m: TOutboxMessage) => m.channel === 'email')).toBe(true);
    const sent = await t.api('GET', '/api/outbox?state=sent');
    expect(sent.body).toEqual([]);
    expect(sent.headers.get('pagination-items-total')).toBe('0');
  });

  it('refuses bad filters and page tokens with a problem', async () => {
    const state = await t.api('GET', '/api/outbox?state=lost');
    expectProblem(state, 400, 'validation-failed');
    expect(state.body.validation_errors).toEqual([
      'state: must be one of queued, sending, sent, failed, bounced, waiting-for-config',
    ]);
    expect((await t.api('GET', '/api/outbox?channel=fax')).body.validation_errors).toEqual([
      'channel: must be one of email, sms',
    ]);
    expect((await t.api('GET', '/api/outbox?colour=red')).body.validation_errors).toEqual(['colour: unknown field']);
    expectProblem(await t.api('GET', '/api/outbox?per_page=0'), 400, 'validation-failed');
    const mailPage = linkOf((await t.api('GET', '/api/outbox?channel=email')).headers, 'next')!;
    const token = new URL(mailPage).searchParams.get('page')!;
    const misused = await t.api('GET', `/api/outbox?channel=sms&page=${encodeURIComponent(token)}`);
    expectProblem(misused, 400, 'validation-failed');
  });

  it('answers 404 for a message that does not exist and 405 for a wrong method', async () => {
    expectProblem(await t.api('GET', '/api/outbox/999999'), 404, 'not-found');
    expectProblem(await t.api('GET', '/api/outbox/abc'), 404, 'not-found');
    expectProblem(await t.api('POST', '/api/outbox/999999/retry'), 404, 'not-found');
    expectProblem(await t.api('POST', '/api/outbox', { body: {} }), 405, 'method-not-allowed');
  });

  it('refuses to retry a message that has not failed, and changes nothing', async () => {
    const id = ids[0]!;
    const before = (await t.api('GET', `/api/outbox/${id}`)).body;
    const response = await t.api('POST', `/api/outbox/${id}/retry`);
    expectProblem(response, 409, 'conflict');
    expect(response.body.detail).toBe(
      'Only a failed or bounced message can be retried; this one is waiting-for-config.',
    );
    expect((await t.api('GET', `/api/outbox/${id}`)).body).toEqual(before);
  });

  it('is for administrators only', async () => {
    const key = await customerKey(t);
    expectProblem(await t.api('GET', '/api/outbox', { key }), 403, 'forbidden');
    expectProblem(await t.api('GET', `/api/outbox/${ids[0]}`, { key }), 403, 'forbidden');
    expectProblem(await t.api('GET', '/api/settings/messaging', { key }), 403, 'forbidden');
    expectProblem(
      await t.api('PUT', '/api/settings/messaging', { key, body: { mail_from: 'x@example.test' } }),
      403,
      'forbidden',
    );
    expect((await t.api('GET', '/api/settings/messaging')).body.mail_from).toBeNull();
  });
});

describe('retrying by hand', () => {
  let smtp: SmtpReceiver;
  let gateway: SmsGateway;
  let t: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpReceiver({
      onRcpt: (address, attempt) =>
        address.startsWith('moved@') && attempt === 1 ? { code: 550, message: '5.1.1 Unknown user' } : undefined,
    });
    gateway = await startSmsGateway((_request, index) =>
      index === 1 ? { status: 400, body: 'bad number' } : { status: 200 },
    );
    t = await startTestServer({ smtpUrl: smtp.url, smsGatewayUrl: gateway.url, mailFrom: 'office@example.test' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await gateway.close();
  });

  it('sends a bounced mail again, to the bounced address only', async () => {
    const id = await queueMail(t.server, { to: 'moved@example.test, stays@example.test', subject: 'Retry me' });
    await waitForOutboxState(t.api, id, 'bounced');
    await smtp.waitForMails(1);
    const retried = await t.api('POST', `/api/outbox/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(['queued', 'sending', 'sent']).toContain(retried.body.state);
    const sent = await waitForOutboxState(t.api, id, 'sent');
    expect(sent.attempts).toBe(2);
    expect(sent.recipients.map((r: TOutboxRecipient) => r.state)).toEqual(['sent', 'sent']);
    const mails = await smtp.waitForMails(2);
    expect(mails.map((mail) => mail.envelopeTo)).toEqual([['stays@example.test'], ['moved@example.test']]);
    // The retried copy looks like the first one: same To header, same Message-ID.
    expect(mails[1]!.mail.to).toEqual(mails[0]!.mail.to);
    expect(mails[1]!.mail.messageId).toBe(mails[0]!.mail.messageId);
    expect(mails[1]!.mail.messageId).toBe(sent.message_id);
    expectProblem(await t.api('POST', `/api/outbox/${id}/retry`), 409, 'conflict');
  });

  it('sends a failed SMS again', async () => {
    const id = await queueSms(t.server, { to: '+46701112233' });
    await waitForOutboxState(t.api, id, 'failed');
    expect((await t.api('POST', `/api/outbox/${id}/retry`)).status).toBe(200);
    const sent = await waitForOutboxState(t.api, id, 'sent');
    expect(sent.attempts).toBe(2);
    expect(gateway.requests).toHaveLength(2);
  });
});
