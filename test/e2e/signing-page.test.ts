import fs from 'node:fs';
import path from 'node:path';
import { type Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { auditAccessibility, openPage, screenshot, SCREENSHOT_DIR } from '../helpers/browser';
import { pdfsig, qpdfCheck } from '../helpers/pdf-tools';
import { linkIn, makeContract, waitForMailsTo, type SigningEnv } from '../helpers/signing';
import { phoneContext, tabTo, waitForPagesDrawn } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

describe('the signing page in Chromium', { timeout: 120_000 }, () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

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
    const { page } = desktop;
    await page.goto(linkIn(invitation!));
    await page.getByRole('heading', { name: 'Hyresavtal Storgatan 1' }).waitFor({ timeout: 30_000 });
    await waitForPagesDrawn(page, 2);
    // Nothing in the signature box until the party acts: a prompt, never a name in script.
    expect(await page.locator('.field-signature').textContent()).toBe('Signature');
    await expect.poll(() => page.locator('.progress').textContent()).toBe('3 of 3 fields left');
    await screenshot(page, 'signing-desktop');
    await page.getByRole('button', { name: 'Sign the document' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('2 fields are still left: fill them in first.');
    // Signing led to the first field left: its editor, labelled, at a usable size.
    const text = page.getByLabel('Text (Required)', { exact: true });
    expect((await text.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await text.fill('Lägenhet 1102');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('One field is still left: fill it in first.');
    await page.getByRole('button', { name: 'Next field' }).click();
    await page.getByLabel('Tick box (Required)', { exact: true }).check();
    // The stale note goes as soon as the last field is filled.
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => page.locator('.progress').textContent()).toBe('1 of 3 fields left');
    await page.getByRole('button', { name: 'Sign the document' }).click();
    // No mark yet: signing asks for one first, then goes on to the consent.
    const dialog = page.getByRole('dialog', { name: 'Your signature' });
    await dialog.getByRole('tab', { name: 'Type' }).click();
    await dialog.getByLabel('Your name').fill('Åsa Öberg');
    await dialog.locator('.face-option').nth(1).click();
    await screenshot(page, 'signing-desktop-type');
    await dialog.getByRole('button', { name: 'Use this signature' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign the document' });
    await confirm.getByRole('button', { name: 'Sign the document' }).click();
    await expect.poll(() => confirm.getByRole('alert').textContent()).toBe('Tick the box to confirm that you agree.');
    await confirm.getByLabel(/agree to sign it electronically/).check();
    await confirm.getByRole('button', { name: 'Sign the document' }).click();
    await page.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor({ timeout: 30_000 });
    // After signing, the document stays in view, with what the party filled in.
    await waitForPagesDrawn(page, 2);
    expect(await page.getByRole('img', { name: /^Text \(Required\): Lägenhet 1102/ }).count()).toBe(1);
    await screenshot(page, 'signing-desktop-signed');
    expect(desktop.problems).toEqual([]);
    expect(await auditAccessibility(page)).toEqual([]);
    await desktop.context.close();

    // The second party, invited once the first signed, on a phone, with the keyboard alone.
    const [second] = await waitForMailsTo(smtp, 'bo@example.test', 1);
    const phoneSession = await phoneContext(browser);
    const phone = await phoneSession.newPage();
    const phoneProblems: string[] = [];
    phone.on('console', (message) => {
      if (message.type() === 'error') phoneProblems.push(message.text());
    });
    await phone.goto(linkIn(second!));
    await waitForPagesDrawn(phone, 2);
    const overflow = await phone.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    // The action bar sits on the bottom of the screen while the document scrolls.
    const bar = await phone.locator('.action-bar').boundingBox();
    expect(bar!.y + bar!.height).toBeLessThanOrEqual(844 + 1);
    expect(bar!.y).toBeGreaterThan(844 / 2);
    await screenshot(phone, 'signing-phone');
    expect(await auditAccessibility(phone)).toEqual([]);
    await tabTo(phone, /^Sign the document$/);
    await phone.keyboard.press('Enter');
    await expect.poll(() => phone.getByRole('dialog', { name: 'Your signature' }).isVisible()).toBe(true);
    await phone.keyboard.press('ArrowRight');
    await tabTo(phone, /^Type$/);
    await phone.keyboard.press('Enter');
    await tabTo(phone, /Use this signature/);
    await phone.keyboard.press('Enter');
    await expect.poll(() => phone.getByRole('dialog', { name: 'Sign the document' }).isVisible()).toBe(true);
    await tabTo(phone, /agree to sign it electronically/);
    await phone.keyboard.press('Space');
    await tabTo(phone, /^Sign the document$/);
    await phone.keyboard.press('Enter');
    await phone.getByRole('heading', { name: 'The document is signed by everyone' }).waitFor({ timeout: 30_000 });
    await screenshot(phone, 'signing-phone-completed');
    expect(phoneProblems).toEqual([]);

    // The download link reaches every party; the PDF is sound, sealed, and breaks if touched.
    const [, download] = await waitForMailsTo(smtp, 'asa@example.test', 2);
    const [downloadEvent] = await Promise.all([
      phone.waitForEvent('download'),
      phone.getByRole('link', { name: 'Download the signed PDF' }).click(),
    ]);
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
    await phoneSession.close();
  }, 180_000);

  it('speaks Swedish when the party chooses it, and remembers the choice', async () => {
    const contract = await makeContract(env.t, [
      {
        name: 'Cecilia Berg',
        email: 'cecilia@example.test',
        fields: [{ type: 'SIGNATURE', pdf_page: 1, pos_x: 72, pos_y: 640, width: 220, height: 56 }],
      },
    ]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(contract.parties[0]!.contract_url);
    await waitForPagesDrawn(page, 2);
    expect(await page.getByRole('button', { name: 'Sign the document' }).count()).toBe(1);
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await expect.poll(() => page.getByRole('button', { name: 'Skriv under dokumentet' }).isVisible()).toBe(true);
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('sv');
    await page.reload();
    await waitForPagesDrawn(page, 2);
    expect(await page.getByRole('button', { name: 'Skriv under dokumentet' }).count()).toBe(1);
    expect(await page.getByRole('combobox', { name: 'Språk', exact: true }).inputValue()).toBe('sv');
    await screenshot(page, 'signing-phone-sv');
    await page.getByRole('button', { name: 'Skriv under dokumentet' }).click();
    await screenshot(page, 'signing-phone-sv-signature');
    expect(await auditAccessibility(page)).toEqual([]);
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const wide = await desktop.newPage();
    await wide.goto(contract.parties[0]!.contract_url);
    await wide.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await waitForPagesDrawn(wide, 2);
    await screenshot(wide, 'signing-desktop-sv');
    await desktop.close();
    await context.close();
  }, 180_000);
});
