import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/index';
import { gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { makeTempDir, startTestServer, testConfig, type TestServer } from '../helpers/server';

/** The outbox and its settings are built on their own branch; these run by themselves once they are served. */
async function isOutboxApiServed(): Promise<boolean> {
  const probe = await createServer(testConfig(makeTempDir()));
  try {
    const document = (await (await fetch(`${probe.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    return '/api/outbox' in document.paths && '/api/settings/messaging' in document.paths;
  } finally {
    await probe.close();
  }
}

const outboxAvailable = await isOutboxApiServed();

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

describe.skipIf(!outboxAvailable)('e-mail settings and the outbox in the admin UI', () => {
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
    await page.getByRole('button', { name: 'Save' }).nth(1).click();
    await expect.poll(() => page.getByText('Saved.').isVisible()).toBe(true);

    mailbox.isRefusing = true;
    await page.getByLabel('Send a test e-mail to').fill('it@berg.test');
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => page.getByText('The test e-mail was not accepted').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(mailbox.received).toEqual([]);

    await gotoAdmin(page, t.url, '/outbox', 'Outbox');
    const row = page.getByTestId('outbox-row').filter({ hasText: 'it@berg.test' });
    await expect.poll(() => row.getByText('Bounced').isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'outbox-bounced');

    mailbox.isRefusing = false;
    await row.getByRole('button', { name: 'Retry the message to it@berg.test' }).click();
    await expect.poll(() => row.getByText('Sent', { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(mailbox.received).toContain('it@berg.test');
    await screenshot(page, 'outbox-sent');
    expect(await auditAccessibility(page), 'outbox-sent').toEqual([]);
    expect(problems).toEqual([]);
  });
});
