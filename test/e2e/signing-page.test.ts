import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditAccessibility, launchBrowser, openPage, screenshot, SCREENSHOT_DIR } from '../helpers/browser';
import { pdfsig, qpdfCheck } from '../helpers/pdf-tools';
import { linkIn, makeContract, startSigningEnv, waitForMailsTo, type SigningEnv } from '../helpers/signing';

/** Presses Tab until the focused element has this accessible label; the page is usable without a mouse. */
async function tabTo(page: Page, label: RegExp, limit = 40): Promise<void> {
  for (let press = 0; press < limit; press += 1) {
    await page.keyboard.press('Tab');
    // A string, so the page's code is not type-checked against Node's lib.
    const name = await page.evaluate<string>(`(() => {
      const active = document.activeElement;
      if (!active) return '';
      const byId = active.id ? document.querySelector('label[for="' + active.id + '"]')?.textContent : '';
      return (active.getAttribute('aria-label') ?? '') + ' ' + (byId ?? '') + ' ' + (active.textContent ?? '');
    })()`);
    if (label.test(name)) return;
  }
  throw new Error(`Tab never reached ${label}`);
}

async function waitForPagesDrawn(page: Page, count: number): Promise<void> {
  await expect.poll(() => page.locator('.page-frame[data-rendered="true"]').count(), { timeout: 15_000 }).toBe(count);
}

describe('the signing page in Chromium', { timeout: 120_000 }, () => {
  let env: SigningEnv;
  let browser: Browser;
  beforeAll(async () => {
    env = await startSigningEnv();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await env.close();
  });

  it('takes two ordered parties from invitation to a sealed PDF, on a desktop and on a phone with the keyboard alone', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(
      t,
      [
        {
          name: 'Åsa Öberg',
          email: 'asa@example.test',
          sign_order: 1,
          fields: [
            { type: 'TEXT', pdf_page: 1, pos_x: 72, pos_y: 560, width: 220, height: 26, content: '' },
            { type: 'CHECKBOX', pdf_page: 1, pos_x: 72, pos_y: 600, width: 20, height: 20 },
            { type: 'SIGNATURE', pdf_page: 2, pos_x: 72, pos_y: 640, width: 220, height: 56 },
          ],
        },
        {
          name: 'Bo Ek',
          email: 'bo@example.test',
          sign_order: 2,
          fields: [
            { type: 'NAME', pdf_page: 2, pos_x: 320, pos_y: 600, width: 200, height: 26 },
            { type: 'SIGNATURE', pdf_page: 2, pos_x: 320, pos_y: 640, width: 220, height: 56 },
          ],
        },
      ],
      { party_order_defined: true },
    );
    expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);

    // The first party, on a desktop, with the mouse.
    const [invitation] = await waitForMailsTo(smtp, 'asa@example.test', 1);
    const desktop = await openPage(browser);
    await desktop.page.goto(linkIn(invitation!));
    await desktop.page.getByRole('heading', { name: 'Hyresavtal Storgatan 1' }).waitFor({ timeout: 30_000 });
    await waitForPagesDrawn(desktop.page, 2);
    await screenshot(desktop.page, 'signing-desktop');
    await desktop.page.getByRole('button', { name: 'Sign the document' }).click();
    await expect.poll(() => desktop.page.getByRole('alert').textContent()).toMatch(/required field/);
    await desktop.page.getByLabel(/^Text/).fill('Lägenhet 1102');
    await desktop.page.getByLabel(/^Tick/).check();
    await desktop.page.getByLabel('Your name, as your signature').fill('Åsa Öberg');
    await desktop.page.getByLabel(/agree to sign it electronically/).check();
    await desktop.page.getByRole('button', { name: 'Sign the document' }).click();
    await desktop.page.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor({ timeout: 30_000 });
    expect(desktop.problems).toEqual([]);
    const violations = await auditAccessibility(desktop.page);
    expect(violations).toEqual([]);
    await desktop.context.close();

    // The second party, invited once the first signed, on a phone, with the keyboard alone.
    const [second] = await waitForMailsTo(smtp, 'bo@example.test', 1);
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const phone = await phoneContext.newPage();
    const phoneProblems: string[] = [];
    phone.on('console', (message) => {
      if (message.type() === 'error') phoneProblems.push(message.text());
    });
    await phone.goto(linkIn(second!));
    await waitForPagesDrawn(phone, 2);
    const overflow = await phone.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, 'signing-phone');
    const accessible = await auditAccessibility(phone);
    expect(accessible).toEqual([]);
    await tabTo(phone, /agree to sign it electronically/);
    await phone.keyboard.press('Space');
    await tabTo(phone, /Sign the document/);
    await phone.keyboard.press('Enter');
    await phone.getByRole('heading', { name: 'The document is signed by everyone' }).waitFor({ timeout: 30_000 });
    await screenshot(phone, 'signing-phone-completed');
    expect(phoneProblems).toEqual([]);

    // The download link reaches every party; the PDF is sound, sealed, and breaks if touched.
    const [, download] = await waitForMailsTo(smtp, 'asa@example.test', 2);
    const [downloadEvent] = await Promise.all([phone.waitForEvent('download'), phone.getByRole('link', { name: 'Download the signed PDF' }).click()]);
    const file = path.join(SCREENSHOT_DIR, 'signed-by-browser.pdf');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await downloadEvent.saveAs(file);
    const fromMail = Buffer.from(await (await fetch(linkIn(download!))).arrayBuffer());
    const bytes = fs.readFileSync(file);
    expect(bytes.equals(fromMail)).toBe(true);
    expect(qpdfCheck(file).status).toBe(0);
    expect(pdfsig(file)).toContain('Signature is Valid');
    // One byte of the original document, well inside the first signed range.
    const tampered = Buffer.from(bytes);
    const at = bytes.indexOf('/MediaBox') + 12;
    tampered[at] = tampered[at] === 0x30 ? 0x31 : 0x30;
    const tamperedFile = path.join(SCREENSHOT_DIR, 'signed-tampered.pdf');
    fs.writeFileSync(tamperedFile, tampered);
    expect(pdfsig(tamperedFile)).not.toContain('Signature is Valid');
    await phoneContext.close();
  });
});
