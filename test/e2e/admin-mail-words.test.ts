import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';
import { makeUser } from '../helpers/users';

/** A body that tries to become HTML in the mail and in the admin's preview. */
const HOSTILE = '<img src=x onerror="document.title=`pwned`"><b>bold</b>';

describe("the office's mail words and DKIM in the admin UI", { timeout: 240_000 }, () => {
  let browser: Browser;
  let smtp: SmtpReceiver;
  let t: TestServer;

  beforeAll(async () => {
    browser = await launchBrowser();
    smtp = await startSmtpReceiver();
    t = await startTestServer({ smtpUrl: smtp.url, mailFrom: 'SignDesk <sign@office.test>' });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  async function settingsAt800(username = 'admin', password = 'correct horse'): Promise<Page> {
    const { page } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, username, password);
    return page;
  }

  const mailWordsCard = (page: Page) => page.getByRole('region', { name: 'Mail words' });

  it('edits the Swedish invitation with a live preview, keeps it, sends it as a test, and shows hostile words as text', async () => {
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const card = mailWordsCard(page);
    await card.getByLabel('Mail language', { exact: true }).selectOption('sv');
    expect(await card.getByLabel('Mail', { exact: true }).inputValue()).toBe('invitation');
    const preview = card.getByTestId('mail-words-preview-text');
    // SignDesk's own Swedish words first.
    await card.getByText('SignDesk’s words', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });

    await card.getByLabel('Subject', { exact: true }).fill('Underskrift: {contract_name}');
    await card
      .getByLabel('Text', { exact: true })
      .fill(`Hej {party_name}!\n\nLäs och skriv under före {expiry}.\n\n${HOSTILE}`);
    // The server fills the placeholders with its example values; the page shows them as text.
    await expect
      .poll(() => card.getByTestId('mail-words-preview-subject').textContent(), { timeout: UI_TIMEOUT_MS })
      .toBe('Underskrift: Lease agreement 2026');
    await expect.poll(() => preview.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('Hej Alex Berg!');
    expect(await preview.textContent()).toContain(HOSTILE);
    expect(await card.getByTestId('mail-words-preview').locator('img, b').count()).toBe(0);

    // A placeholder the server does not know: refused beside the field, in the server's words.
    await card.getByLabel('Subject', { exact: true }).fill('Underskrift {bcc}');
    await card.locator('.field-error', { hasText: 'unknown placeholder {bcc}' }).waitFor({ timeout: UI_TIMEOUT_MS });
    // A header pasted into the subject: it stays one line of the subject, sent to nobody else.
    await card.getByLabel('Subject', { exact: true }).fill('Underskrift: {contract_name}\r\nBcc: evil@attacker.test');
    await expect
      .poll(() => card.getByTestId('mail-words-preview-subject').textContent(), { timeout: UI_TIMEOUT_MS })
      .toMatch(/^Underskrift: Lease agreement 2026 ?Bcc: evil@attacker\.test$/);
    const before = smtp.mails.length;
    await card.getByLabel('Send this mail as a test to', { exact: true }).fill('admin@office.test');
    await card.getByRole('button', { name: 'Send test' }).click();
    const hostile = (await smtp.waitForMails(before + 1))[before];
    expect(hostile?.envelopeTo).toEqual(['admin@office.test']);
    expect(hostile?.mail.headers.has('bcc')).toBe(false);
    expect(hostile?.mail.subject).toMatch(/Lease agreement 2026 ?Bcc: evil@attacker\.test$/);
    expect(smtp.rcptLog).not.toContain('evil@attacker.test');

    await card.getByLabel('Subject', { exact: true }).fill('Underskrift: {contract_name}');
    await card.getByRole('button', { name: 'Save' }).click();
    await card
      .getByText('The office’s own words are saved for this mail and language.')
      .waitFor({ timeout: UI_TIMEOUT_MS });

    await page.reload();
    await mailWordsCard(page).getByLabel('Mail language', { exact: true }).selectOption('sv');
    await expect
      .poll(() => mailWordsCard(page).getByLabel('Subject', { exact: true }).inputValue(), { timeout: UI_TIMEOUT_MS })
      .toBe('Underskrift: {contract_name}');
    expect(await mailWordsCard(page).getByLabel('Text', { exact: true }).inputValue()).toContain(HOSTILE);
    expect((await t.api('GET', '/api/settings/mail_words')).body.invitation.sv.subject).toBe(
      'Underskrift: {contract_name}',
    );

    // The test mail sends the saved words (the form as it is) through the real SMTP server.
    const sent = smtp.mails.length;
    await mailWordsCard(page).getByLabel('Send this mail as a test to', { exact: true }).fill('admin@office.test');
    await mailWordsCard(page).getByRole('button', { name: 'Send test' }).click();
    await mailWordsCard(page)
      .getByText('The SMTP server accepted the test e-mail to admin@office.test.')
      .waitFor({ timeout: UI_TIMEOUT_MS });
    const mail = (await smtp.waitForMails(sent + 1))[sent];
    expect(mail?.envelopeTo).toEqual(['admin@office.test']);
    expect(mail?.mail.subject).toContain('Underskrift: Lease agreement 2026');
    expect(mail?.mail.text).toContain('Hej Alex Berg!');
    expect(mail?.mail.text).toContain(HOSTILE);
    expect(mail?.mail.html).not.toContain('<img src=x');
    expect(mail?.mail.html).toContain('&lt;img src=x');

    expect(await page.title()).not.toBe('pwned');
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-mail-words');
    expect(await auditAccessibility(page), 'settings-mail-words').toEqual([]);

    // Back to SignDesk's words: the office's are removed, the form is empty, the preview says whose words it shows.
    await mailWordsCard(page).getByRole('button', { name: 'Back to SignDesk’s words' }).click();
    await mailWordsCard(page)
      .getByText('SignDesk’s words are back for this mail and language.')
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await t.api('GET', '/api/settings/mail_words')).body.invitation.sv).toBeUndefined();
    expect(await mailWordsCard(page).getByLabel('Subject', { exact: true }).inputValue()).toBe('');
    await mailWordsCard(page).getByText('SignDesk’s words', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(problems).toEqual([]);
  });

  it('signs the mails with a pasted DKIM key, shows the record to publish but never the key, and turns it off (800 px)', async () => {
    const page = await settingsAt800();
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const card = page.getByRole('region', { name: 'DKIM: mails signed for the office’s domain' });
    await card.getByText('Mails are not signed.', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).toString('base64');

    await card.getByLabel('Domain', { exact: true }).fill('office.test');
    await card.getByLabel('Selector', { exact: true }).fill('signdesk');
    await card.getByLabel('Private key (PEM)', { exact: true }).fill(pem);
    await card.getByRole('button', { name: 'Save' }).click();
    await card
      .getByText('Mails are signed for office.test with the selector signdesk.')
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText('signdesk._domainkey.office.test', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await card.getByTestId('dkim-record-value').textContent()).toBe(`v=DKIM1; k=rsa; p=${publicKey}`);
    // The key is never shown back.
    expect(await card.getByLabel('Private key (PEM)', { exact: true }).inputValue()).toBe('');
    const keyLine = pem.split('\n')[1] ?? '';
    expect(await page.content()).not.toContain(keyLine);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-dkim');

    // The mail that follows carries the signature, for that domain and selector.
    const sent = smtp.mails.length;
    const words = mailWordsCard(page);
    await words.getByLabel('Send this mail as a test to', { exact: true }).fill('admin@office.test');
    await words.getByRole('button', { name: 'Send test' }).click();
    const mail = (await smtp.waitForMails(sent + 1))[sent];
    // mailparser gives the header's tags as params.
    const signature = mail?.mail.headers.get('dkim-signature') as { params?: Record<string, string> } | undefined;
    expect(signature?.params).toMatchObject({ a: 'rsa-sha256', d: 'office.test', s: 'signdesk' });

    await card.getByRole('button', { name: 'Turn DKIM off' }).click();
    await card.getByText('Mails are not signed.', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await t.api('GET', '/api/settings/dkim')).body).toMatchObject({ private_key: null, dns_record: null });
  });

  it('speaks Swedish, and an ordinary user sees neither section', async () => {
    const page = await settingsAt800();
    await page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
    await page.goto(`${t.url}/admin/settings`);
    const card = page.getByRole('region', { name: 'Ord i mejlen' });
    await card.getByLabel('Ämne', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText('{party_name}', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText('partens namn', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page
      .getByRole('region', { name: 'DKIM: mejl signerade för kontorets domän' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await fitsWidth(page)).toBe(true);

    await makeUser(t, 'clerk');
    const clerk = await settingsAt800('clerk', 'clerk password');
    await clerk.goto(`${t.url}/admin/settings`);
    await clerk.getByRole('heading', { name: 'For administrators only' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await clerk.getByText('Mail words').count()).toBe(0);
    expect(await clerk.getByText(/DKIM/).count()).toBe(0);
  });
});
