import { mapInOrder } from '../../server/core/in-order';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderMailLayout } from '../../server/messages/mail/render-mail-layout';
import { createParties, partyFlags, queueMail, waitForOutboxState } from '../helpers/outbox';
import { startTestServer, type TestServer } from '../helpers/server';
import { reservePort, startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';

const FAST_RETRIES = [0.05, 0.05, 0.05];

describe('mail delivery through a real SMTP server', () => {
  let smtp: SmtpReceiver;
  let t: TestServer;
  const tries = new Map<string, number>();
  let contractId = 0;
  let partyIds: number[] = [];

  beforeAll(async () => {
    smtp = await startSmtpReceiver({
      onRcpt: (address, attempt) => {
        tries.set(address, attempt);
        if (address.startsWith('nobody@')) return { code: 550, message: '5.1.1 No such user here' };
        if (address.startsWith('greylisted@') && attempt <= 2)
          return { code: 451, message: '4.7.1 Greylisted, try again later' };
        if (address.startsWith('full@')) return { code: 451, message: '4.2.2 Mailbox full' };
        return undefined;
      },
    });
    t = await startTestServer({
      smtpUrl: smtp.url,
      mailFrom: 'SignDesk <office@example.test>',
      outboxRetryScheduleS: FAST_RETRIES,
    });
    ({ contractId, partyIds } = await createParties(t, 4));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  afterEach(() => {
    smtp.mails.length = 0;
  });

  it('sends subject, sender name, reply-to, a text part beside the HTML, all in UTF-8', async () => {
    const layout = renderMailLayout({
      title: 'Avtal att skriva under',
      paragraphs: ['Hej Åsa Öberg,', 'Kontoret i Växjö har skickat ett avtal till dig: "Hyresavtal <lägenhet 4>".'],
      button: { label: 'Öppna avtalet', url: 'https://sign.example.test/sign/abc?x=1&y=2' },
      footer: 'Skickat av Kontoret i Växjö',
      language: 'sv',
    });
    const id = await queueMail(t.server, {
      to: 'Åsa Öberg <asa@example.test>',
      subject: 'Avtal för underskrift: Hyresavtal Öster – 4 rum',
      text: layout.text,
      html: layout.html,
      fromName: 'Kontoret i Växjö',
      replyTo: 'handlaggare@example.test',
      purpose: 'invitation',
      contractId,
      partyId: partyIds[0],
    });
    const [received] = await smtp.waitForMails(1);
    const mail = received!.mail;
    expect(mail.subject).toBe('Avtal för underskrift: Hyresavtal Öster – 4 rum');
    expect(mail.from?.value).toEqual([{ name: 'Kontoret i Växjö', address: 'office@example.test' }]);
    expect(mail.replyTo?.value).toEqual([{ name: '', address: 'handlaggare@example.test' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : []).toEqual([
      { name: 'Åsa Öberg', address: 'asa@example.test' },
    ]);
    expect(mail.text).toContain('Hej Åsa Öberg,');
    expect(mail.text).toContain('Öppna avtalet:\nhttps://sign.example.test/sign/abc?x=1&y=2');
    expect(mail.html).toContain('Hej Åsa Öberg,');
    expect(mail.html).toContain('&quot;Hyresavtal &lt;lägenhet 4&gt;&quot;');
    expect(mail.html).toContain('href="https://sign.example.test/sign/abc?x=1&amp;y=2"');
    expect(received!.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(received!.raw).toMatch(/Content-Type: text\/plain; charset=utf-8/i);
    expect(received!.raw).toMatch(/Content-Type: text\/html; charset=utf-8/i);
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(received!.envelopeFrom).toBe('office@example.test');
    expect(received!.envelopeTo).toEqual(['asa@example.test']);

    const message = await waitForOutboxState(t.api, id, 'sent');
    expect(message).toMatchObject({
      self: `/api/outbox/${id}`,
      channel: 'email',
      to: 'Åsa Öberg <asa@example.test>',
      subject: 'Avtal för underskrift: Hyresavtal Öster – 4 rum',
      purpose: 'invitation',
      contract: `/api/contracts/${contractId}`,
      party: `/api/contracts/${contractId}/parties/${partyIds[0]}`,
      attempts: 1,
      last_error: null,
      message_id: mail.messageId,
      recipients: [{ address: 'asa@example.test', state: 'sent' }],
      next_attempt_time: null,
    });
    expect(message.response).toMatch(/^250 /);
    expect(message.sent_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(message).not.toHaveProperty('text');
    expect(message).not.toHaveProperty('html');
    expect(await partyFlags(t.server, partyIds[0]!)).toMatchObject({
      email_sent: 1,
      email_bounced: 0,
      email_hardbounced: 0,
    });
  });

  it('sends a burst of mail over at most four pooled connections, each mail once', async () => {
    const before = smtp.connections();
    const ids = await mapInOrder(
      Array.from({ length: 30 }, (_, n) => n),
      async (n) => queueMail(t.server, { to: `burst${n}@example.test` }),
    );
    const mails = await smtp.waitForMails(30);
    expect(mails.map((mail) => mail.envelopeTo[0]).sort()).toEqual(
      Array.from({ length: 30 }, (_, n) => `burst${n}@example.test`).sort(),
    );
    // Not a connection a mail: the pool's connections carry them all.
    expect(new Set(mails.map((mail) => mail.session)).size).toBeLessThanOrEqual(4);
    expect(smtp.connections() - before).toBeLessThanOrEqual(4);
    for (const id of [ids[0], ids[29]]) await waitForOutboxState(t.api, id as number, 'sent');
    expect(smtp.mails).toHaveLength(30);
  });

  it('records a 550 as a hard bounce for that address only, and keeps the message', async () => {
    const bounced = await queueMail(t.server, {
      to: 'nobody@example.test, colleague@example.test',
      partyId: partyIds[1],
      contractId,
    });
    const other = await queueMail(t.server, { to: 'someone@example.test', partyId: partyIds[2], contractId });

    const message = await waitForOutboxState(t.api, bounced, 'bounced');
    expect(message.attempts).toBe(1);
    expect(message.recipients).toEqual([
      {
        address: 'nobody@example.test',
        state: 'hardbounced',
        response: expect.stringMatching(/^550 5\.1\.1 No such user here/),
      },
      { address: 'colleague@example.test', state: 'sent', response: expect.stringMatching(/^250 /) },
    ]);
    expect(message.last_error).toContain('nobody@example.test: 550');
    expect(message.next_attempt_time).toBeNull();
    expect(tries.get('nobody@example.test')).toBe(1);

    await waitForOutboxState(t.api, other, 'sent');
    await smtp.waitForMails(2);
    const envelopes = smtp.mails.map((mail) => mail.envelopeTo).sort();
    expect(envelopes).toEqual([['colleague@example.test'], ['someone@example.test']]);
    expect(await partyFlags(t.server, partyIds[1]!)).toMatchObject({
      email_bounced: 1,
      email_hardbounced: 1,
      email_softbounced: 0,
    });
    expect(await partyFlags(t.server, partyIds[2]!)).toMatchObject({ email_sent: 1, email_bounced: 0 });
  });

  it('retries a 451 and sends once the server takes it', async () => {
    const id = await queueMail(t.server, {
      to: 'greylisted@example.test',
      subject: 'Greylisted',
      replyTo: 'not an address',
    });
    const message = await waitForOutboxState(t.api, id, 'sent');
    expect(message.attempts).toBe(3);
    expect(message.recipients[0].state).toBe('sent');
    const received = smtp.mails.filter((mail) => mail.mail.subject === 'Greylisted');
    expect(received).toHaveLength(1);
    // A reply-to that is no address is left out.
    expect(received[0]!.mail.replyTo).toBeUndefined();
  });

  it('soft-bounces an address that keeps answering 451 once the retries run out', async () => {
    const id = await queueMail(t.server, { to: 'full@example.test', partyId: partyIds[3] });
    const message = await waitForOutboxState(t.api, id, 'bounced');
    expect(message.attempts).toBe(FAST_RETRIES.length + 1);
    expect(tries.get('full@example.test')).toBe(FAST_RETRIES.length + 1);
    expect(message.recipients).toEqual([
      {
        address: 'full@example.test',
        state: 'softbounced',
        response: expect.stringMatching(/^451 4\.2\.2 Mailbox full/),
      },
    ]);
    expect(await partyFlags(t.server, partyIds[3]!)).toMatchObject({
      email_sent: 0,
      email_bounced: 1,
      email_softbounced: 1,
      email_hardbounced: 0,
    });
  });
});

describe('an SMTP server that is down', () => {
  it('keeps the mail queued and sends it when the server comes back', async () => {
    const port = await reservePort();
    const t = await startTestServer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      mailFrom: 'office@example.test',
      outboxRetryScheduleS: Array.from({ length: 40 }, () => 0.25),
    });
    let smtp: SmtpReceiver | undefined;
    try {
      const id = await queueMail(t.server, { to: 'waiting@example.test', subject: 'After the outage' });
      await expect
        .poll(async () => (await t.api('GET', `/api/outbox/${id}`)).body, { timeout: 10_000 })
        .toMatchObject({ state: 'queued', last_error: expect.stringContaining('ECONNREFUSED') });
      const waiting = (await t.api('GET', `/api/outbox/${id}`)).body;
      expect(waiting.attempts).toBeGreaterThanOrEqual(1);
      expect(waiting.next_attempt_time).not.toBeNull();

      smtp = await startSmtpReceiver({ port });
      const [received] = await smtp.waitForMails(1);
      expect(received!.mail.subject).toBe('After the outage');
      const sent = await waitForOutboxState(t.api, id, 'sent');
      expect(sent.attempts).toBeGreaterThanOrEqual(2);
      expect(sent.last_error).toBeNull();
    } finally {
      await t.close();
      await smtp?.close();
    }
  });
});

describe('no SMTP server configured', () => {
  it('lets mail wait without using attempts, and sends it once SMTP is set', async () => {
    const t = await startTestServer({ smtpUrl: undefined, mailFrom: undefined });
    const smtp = await startSmtpReceiver();
    try {
      const id = await queueMail(t.server, { to: 'later@example.test', subject: 'Sent once configured' });
      const waiting = await waitForOutboxState(t.api, id, 'waiting-for-config');
      expect(waiting.attempts).toBe(0);
      expect(smtp.mails).toHaveLength(0);

      const put = await t.api('PUT', '/api/settings/messaging', {
        body: { smtp_url: smtp.url, mail_from: 'Office <office@example.test>' },
      });
      expect(put.status).toBe(200);
      const [received] = await smtp.waitForMails(1);
      expect(received!.mail.subject).toBe('Sent once configured');
      expect(received!.mail.from?.value).toEqual([{ name: 'Office', address: 'office@example.test' }]);
      const sent = await waitForOutboxState(t.api, id, 'sent');
      expect(sent.attempts).toBe(1);
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  it('sends waiting mail after a restart with SMTP_URL set', async () => {
    const first = await startTestServer({ smtpUrl: undefined });
    const id = await queueMail(first.server, { to: 'restart@example.test', subject: 'Configured by the environment' });
    await waitForOutboxState(first.api, id, 'waiting-for-config');
    await first.close();

    const smtp = await startSmtpReceiver();
    const second = await startTestServer({ smtpUrl: smtp.url, mailFrom: 'office@example.test' }, first.dataDir);
    try {
      const [received] = await smtp.waitForMails(1);
      expect(received!.mail.subject).toBe('Configured by the environment');
      await waitForOutboxState(second.api, id, 'sent');
    } finally {
      await second.close();
      await smtp.close();
    }
  });
});

describe('email_status flags', () => {
  it('are turned on by the outbox and never off', async () => {
    const { markPartyEmailStatus } = await import('../../server/db/repos/party-email-status');
    const t = await startTestServer();
    try {
      const { partyIds } = await createParties(t, 2);
      const [first, second] = partyIds as [number, number];
      expect(await markPartyEmailStatus(t.server.ctx, first, { sent: true })).toBe(true);
      expect(await markPartyEmailStatus(t.server.ctx, first, { bounced: true, hardbounced: true, sent: false })).toBe(
        true,
      );
      expect(await markPartyEmailStatus(t.server.ctx, 9_999, { sent: true })).toBe(false);
      expect(await partyFlags(t.server, first)).toMatchObject({
        email_sent: 1,
        email_bounced: 1,
        email_hardbounced: 1,
        email_softbounced: 0,
        email_opened: 0,
      });
      expect(await partyFlags(t.server, second)).toMatchObject({ email_sent: 0 });
      const party = await t.api('GET', `/api/contracts/1/parties/${first}`);
      expect(party.body.email_status).toMatchObject({ sent: true, bounced: true, hardbounced: true, opened: false });
    } finally {
      await t.close();
    }
  });
});
