import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

type Mailbox = { port: number; received: string[]; isRefusing: boolean; close: () => Promise<void> };

/** A real SMTP server on a local port that can refuse every recipient with 550. */
function startSmtpServer(): Promise<Mailbox> {
  const mailbox: Mailbox = { port: 0, received: [], isRefusing: false, close: async () => undefined };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!mailbox.isRefusing) return callback();
      const refusal = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
      return callback(refusal);
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        mailbox.received.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      mailbox.port = (server.server.address() as AddressInfo).port;
      mailbox.close = () => new Promise((done) => server.close(() => done()));
      resolve(mailbox);
    });
  });
}

describe('e-mail settings and the outbox in the admin UI', { timeout: 120_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  let mailbox: Mailbox;
  beforeAll(async () => {
    browser = await launchBrowser();
    mailbox = await startSmtpServer();
    t = await startTestServer();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await mailbox?.close();
  });

  it('sets SMTP, sends a test e-mail, and retries a bounced message by hand until it is sent', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    await page.getByLabel('SMTP server URL').fill(`smtp://127.0.0.1:${mailbox.port}`);
    await page.getByLabel('Sender (From)').fill('Berg & Partners <sign@berg.test>');
    // The messaging card's own Save: the settings page has one per card.
    await page
      .locator('form', { has: page.getByLabel('SMTP server URL') })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByText('Saved.').waitFor({ timeout: 30_000 });

    mailbox.isRefusing = true;
    await page.getByLabel('Send a test e-mail to').fill('it@berg.test');
    // The messaging card's own test (the mail words card has one too).
    await page
      .locator('form', { has: page.getByLabel('SMTP server URL') })
      .getByRole('button', { name: 'Send test' })
      .click();
    await page.getByText('The test e-mail was not accepted').waitFor({ timeout: 30_000 });
    expect(mailbox.received).toEqual([]);

    await gotoAdmin(page, t.url, '/outbox', 'Outbox');
    const row = page.getByTestId('outbox-row').filter({ hasText: 'it@berg.test' });
    await row.getByText('Bounced').waitFor({ timeout: 30_000 });
    await screenshot(page, 'outbox-bounced');

    mailbox.isRefusing = false;
    await row.getByRole('button', { name: 'Retry the message to it@berg.test' }).click();
    await row.getByText('Sent', { exact: true }).waitFor({ timeout: 30_000 });
    expect(mailbox.received).toContain('it@berg.test');
    await screenshot(page, 'outbox-sent');
    expect(await auditAccessibility(page), 'outbox-sent').toEqual([]);
    expect(problems).toEqual([]);
  });
});
