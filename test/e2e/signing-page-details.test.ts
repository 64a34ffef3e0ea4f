import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { auditAccessibility, screenshot } from '../helpers/browser';
import { makeContract, type SigningEnv } from '../helpers/signing';
import { phoneContext, waitForPagesDrawn } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

const FIELDS = [
  { type: 'TEXT', pdf_page: 1, pos_x: 60, pos_y: 300, width: 138, height: 14, content: 'Delivery to Gothenburg' },
  { type: 'CHECKBOX', pdf_page: 1, pos_x: 60, pos_y: 340, width: 16, height: 16 },
  { type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 480, width: 240, height: 80 },
];

/** Width and height (CSS px) of what the locator finds. */
async function sizeOf(page: Page, selector: string): Promise<{ width: number; height: number }> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not on the screen`);
  return { width: box.width, height: box.height };
}

describe('the signing page: language, landmarks, touch targets', () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it("speaks the browser's language before the contract's: Swedish for a Swedish browser on an English contract, and back", async () => {
    const english = await makeContract(env.t, [{ name: 'Sara Svensk', email: 'sara@example.test' }], {
      language: 'en',
    });
    await env.t.api('POST', `${english.self}/send`, { body: { silent: true } });
    const link = english.parties[0]!.contract_url;
    // The first screen the server writes already follows Accept-Language.
    const html = await fetch(link, { headers: { 'accept-language': 'sv-SE,sv;q=0.9,en;q=0.8' } });
    expect(html.headers.get('vary')).toMatch(/Accept-Language/i);
    const text = await html.text();
    expect(text).toContain('<html lang="sv" dir="ltr">');
    expect(text).toContain('Sida 1 av 2');
    const swedish = await phoneContext(browser, { locale: 'sv-SE' });
    const page = await swedish.newPage();
    await page.goto(link);
    await waitForPagesDrawn(page, 2);
    await page.getByRole('button', { name: 'Skriv under dokumentet' }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('sv');
    expect(await page.getByRole('combobox', { name: 'Språk', exact: true }).inputValue()).toBe('sv');
    await swedish.close();

    // A browser whose first language the page speaks (German) gets it, whatever the contract's.
    const swedishContract = await makeContract(env.t, [{ name: 'Dieter Deutsch', email: 'dieter@example.test' }], {
      language: 'sv',
    });
    await env.t.api('POST', `${swedishContract.self}/send`, { body: { silent: true } });
    const german = await phoneContext(browser, { locale: 'de-DE' });
    await german.setExtraHTTPHeaders({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    const germanPage = await german.newPage();
    await germanPage.addInitScript(
      `Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'de', 'en'] });`,
    );
    await germanPage.goto(swedishContract.parties[0]!.contract_url);
    await germanPage.getByRole('button', { name: 'Dokument unterschreiben' }).waitFor({ timeout: 20_000 });
    // A browser of a language the page does not speak (Japanese): the contract's Swedish.
    const japanese = await phoneContext(browser, { locale: 'ja-JP' });
    const japanesePage = await japanese.newPage();
    await japanesePage.goto(swedishContract.parties[0]!.contract_url);
    await japanesePage.getByRole('button', { name: 'Skriv under dokumentet' }).waitFor({ timeout: 20_000 });
    await german.close();
    await japanese.close();
  }, 180_000);

  it('has one main landmark, 44 px targets for the tick box and Clear, and text in boxes not cut at the top', async () => {
    const contract = await makeContract(env.t, [{ name: 'Leo Liten', email: 'leo@example.test', fields: FIELDS }]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(contract.parties[0]!.contract_url);
    await waitForPagesDrawn(page, 2);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('banner').count()).toBe(1);
    // Every control of the bar and the page is inside a landmark (axe's best practice "region").
    expect(
      await page.evaluate<number>(
        `[...document.querySelectorAll('#root button, #root a, #root input')].filter((el) => !el.closest('main, header, section[aria-label], [role="dialog"], dialog')).length`,
      ),
    ).toBe(0);

    await page.locator('button.field-checkbox').tap();
    const tick = await sizeOf(page, '.action-bar input[type="checkbox"]');
    expect(tick.width).toBeGreaterThanOrEqual(44);
    expect(tick.height).toBeGreaterThanOrEqual(44);

    // The prefilled text's line box holds its letters: at least 1.2 times the font's size.
    const line = await page.evaluate<{ fontSize: number; height: number }>(
      `(() => { const span = document.querySelector('button.field-text .field-text'); const style = getComputedStyle(span); return { fontSize: parseFloat(style.fontSize), height: span.getBoundingClientRect().height }; })()`,
    );
    expect(line.height / line.fontSize).toBeGreaterThanOrEqual(1.2);
    await screenshot(page, 'signing-details-text-box');

    await page.locator('.field-signature').tap();
    const dialog = page.getByRole('dialog', { name: 'Your signature' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const clear = await dialog.getByRole('button', { name: 'Clear' }).first().boundingBox();
    expect(clear!.height).toBeGreaterThanOrEqual(44);
    expect(clear!.width).toBeGreaterThanOrEqual(44);
    expect(await auditAccessibility(page)).toEqual([]);
    await context.close();
  }, 180_000);
});
