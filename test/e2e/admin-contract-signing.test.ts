import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, openPage, screenshot, SCREENSHOT_DIR, type WatchedPage } from '../helpers/browser';
import {
  isSamePage,
  markPage,
  partyStateOf,
  recordState,
  timestampIn,
  waitForDocument,
  waitForPartyState,
  waitForStatus,
} from '../helpers/contract-page';
import { pdfsig, qpdfCheck } from '../helpers/pdf-tools';
import { linkIn, mailsTo, makeContract, signingClient, waitForMailsTo, type SigningEnv } from '../helpers/signing';
import { signOnPage, waitForPagesDrawn } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

const CONTRACT = 'Hyresavtal Storgatan 1';

describe('the contract page through the signing flow', { timeout: 180_000 }, () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  /** The admin's windows on one contract: a desktop one (which may use the clipboard) and one at 200 % zoom. */
  async function openContract(id: number): Promise<[WatchedPage, WatchedPage]> {
    const windows = [await openPage(browser), await openPage(browser, { zoom200: true })] as [WatchedPage, WatchedPage];
    await windows[0].context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.t.url });
    for (const { page } of windows) {
      await signInThroughPage(page, env.t.url, 'admin', 'correct horse');
      await gotoAdmin(page, env.t.url, `/contracts/${id}`, CONTRACT);
      await markPage(page);
    }
    return windows;
  }

  const copyLinkOf = async (page: Page, name: string): Promise<string> => {
    await page.getByRole('button', { name: `Copy link: the personal signing link of ${name}` }).click();
    return page.evaluate<string>('navigator.clipboard.readText()');
  };

  it('sends from the UI, follows two ordered parties live, reminds, and downloads the sealed PDF', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(
      t,
      [
        { name: 'Eva Nordin', email: 'eva@nordin.test', sign_order: 1 },
        {
          name: 'Bo Ek',
          email: 'bo@ek.test',
          sign_order: 2,
          fields: [{ type: 'SIGNATURE', pdf_page: 1, pos_x: 320, pos_y: 640, width: 200, height: 50 }],
        },
      ],
      { party_order_defined: true, expire_time: timestampIn(t, 30 * 24 * 3600) },
    );
    const windows = await openContract(contract.id);
    const [desktop, zoomed] = windows;
    const { page } = desktop;
    await recordState(windows, 'draft', 'draft');
    expect(await page.getByRole('button', { name: 'Send reminder' }).count()).toBe(0);

    // Sending, with who gets what and the two options explained.
    await page.getByRole('button', { name: 'Send for signing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send for signing' });
    await dialog.getByText('an e-mail to eva@nordin.test').waitFor({ timeout: UI_TIMEOUT_MS });
    await dialog.getByText('invited when it is their turn').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await dialog.getByLabel('Sign my own part now').isDisabled()).toBe(true);
    await screenshot(page, 'contract-send-dialog');
    expect(await auditAccessibility(page), 'send dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await waitForStatus(page, 'sent');
    expect(await partyStateOf(page, 'Eva Nordin')).toBe('invited');
    expect(await partyStateOf(page, 'Bo Ek')).toBe('waiting');
    await page.getByText('After Eva Nordin').waitFor({ timeout: UI_TIMEOUT_MS });
    const [invitation] = await waitForMailsTo(smtp, 'eva@nordin.test', 1);
    expect(mailsTo(smtp, 'bo@ek.test')).toHaveLength(0);
    await waitForPartyState(zoomed.page, 'Eva Nordin', 'invited');

    // The copied link is Eva's personal one, the one her invitation carries.
    const evaLink = await copyLinkOf(page, 'Eva Nordin');
    expect(evaLink).toBe(linkIn(invitation!));
    await recordState(windows, 'sent', 'sent');

    // Eva opens her link, then signs: both windows follow without a reload.
    const eva = signingClient(evaLink);
    expect((await eva.open()).status).toBe(200);
    await waitForPartyState(page, 'Eva Nordin', 'opened');
    expect((await eva.state()).status).toBe(200);
    expect((await eva.accept({}, 'Eva Nordin')).status).toBe(200);
    for (const window of windows) {
      await waitForPartyState(window.page, 'Eva Nordin', 'signed');
      await waitForPartyState(window.page, 'Bo Ek', 'invited');
    }
    await page.getByText('1 of 2 signed').waitFor({ timeout: UI_TIMEOUT_MS });
    await waitForMailsTo(smtp, 'bo@ek.test', 1);

    // A reminder reaches the party whose answer is awaited, and only that one.
    await page.getByRole('button', { name: 'Send reminder' }).click();
    await page.getByText('Reminder sent to Bo Ek.').waitFor({ timeout: 30_000 });
    await waitForMailsTo(smtp, 'bo@ek.test', 2);
    expect(mailsTo(smtp, 'eva@nordin.test')).toHaveLength(1);
    await recordState(windows, 'sent', 'partly-signed');

    // Bo signs in his own browser; the admin's page turns signed by itself.
    const [, reminder] = mailsTo(smtp, 'bo@ek.test');
    const bo = await openPage(browser);
    await bo.page.goto(linkIn(reminder!));
    await waitForPagesDrawn(bo.page, 2);
    await signOnPage(bo.page);
    await bo.page.getByRole('heading', { name: 'The document is signed by everyone' }).waitFor({ timeout: 30_000 });
    await bo.context.close();
    await recordState(windows, 'signed', 'signed');
    for (const window of windows) expect(await isSamePage(window.page), 'no reload').toBe(true);
    await page.getByRole('heading', { name: 'Signed document' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await waitForDocument(page)).toBeGreaterThan(2);
    expect(await page.getByRole('button', { name: 'Send reminder' }).count()).toBe(0);

    // The download goes with the session cookie and is the sealed PDF the API serves.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download signed PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${CONTRACT} (signed).pdf`);
    const file = path.join(SCREENSHOT_DIR, 'contract-signed-from-admin.pdf');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await download.saveAs(file);
    const fromApi = await fetch(`${t.url}${contract.self}/signed_pdf`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(fs.readFileSync(file).equals(Buffer.from(await fromApi.arrayBuffer()))).toBe(true);
    expect(qpdfCheck(file).status).toBe(0);
    expect(pdfsig(file)).toContain('Signature is Valid');

    // In Swedish too.
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await page.getByRole('heading', { name: 'Signerat av alla' }).waitFor({ timeout: 30_000 });
    await waitForDocument(page);
    await screenshot(page, 'contract-signed-sv');
    expect(await auditAccessibility(page), 'signed, in Swedish').toEqual([]);
  });

  it('signs the sender’s own part at send, sends nothing when silent, and shows a rejection with its cause', async () => {
    const { t } = env;
    const contract = await makeContract(t, [
      { name: 'Admin Berg', delivery_method: 'NONE', user: t.adminPath },
      { name: 'Eva Nordin', email: 'eva.r@nordin.test' },
    ]);
    const windows = await openContract(contract.id);
    const { page } = windows[0];
    await page.getByRole('button', { name: 'Send for signing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send for signing' });
    await dialog.getByLabel('Send no invitations').check();
    await dialog.getByLabel('Sign my own part now').check();
    await dialog.getByText('The parties that are you (Admin Berg)').waitFor({ timeout: UI_TIMEOUT_MS });
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await waitForStatus(page, 'sent');
    await waitForPartyState(page, 'Admin Berg', 'signed');
    expect(await partyStateOf(page, 'Eva Nordin')).toBe('invited');
    const outbox = await t.api('GET', '/api/outbox?per_page=100');
    expect(outbox.body.filter((message: any) => message.to === 'eva.r@nordin.test')).toEqual([]);

    const eva = signingClient(await copyLinkOf(page, 'Eva Nordin'));
    expect((await eva.state()).status).toBe(200);
    expect((await eva.reject('The rent is higher than we agreed.')).status).toBe(200);
    for (const window of windows) await waitForPartyState(window.page, 'Eva Nordin', 'rejected');
    expect(await page.locator('.status-cause').textContent()).toBe('The rent is higher than we agreed.');
    await recordState(windows, 'rejected', 'rejected');
    expect(await page.getByRole('button', { name: 'Send reminder' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Download signed PDF' }).count()).toBe(0);
  });

  it('shows an expired contract as expired, its reminder turned off', async () => {
    const { t } = env;
    const contract = await makeContract(t, [{ name: 'Eva Nordin', email: 'eva.x@nordin.test' }], {
      expire_time: timestampIn(t, 4),
    });
    expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
    const windows = await openContract(contract.id);
    await recordState(windows, 'expired', 'expired');
    const remind = windows[0].page.getByRole('button', { name: 'Send reminder' });
    expect(await remind.isDisabled()).toBe(true);
    expect(await partyStateOf(windows[0].page, 'Eva Nordin')).toBe('unanswered');
    expect((await t.api('POST', `${contract.self}/notify`)).status).toBe(409);
  });
});
