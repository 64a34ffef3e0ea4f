import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../shared/i18n/catalogues';
import type { Language } from '../../shared/api/enums';
import { makeContract, type SigningEnv } from '../helpers/signing';
import { phoneContext } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

const FIELDS = [{ type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 480, width: 240, height: 80 }];

/**
 * The literal words of every English message of the signing page whose translation in `language`
 * differs (a placeholder splits a message into its parts; ICU plurals are left to their own words).
 */
function englishLeftIn(language: Language): string[] {
  const english = CATALOGUES.en.signing as Record<string, string>;
  const translated = CATALOGUES[language].signing as Record<string, string>;
  const words = new Set<string>();
  for (const [key, message] of Object.entries(english)) {
    if (translated[key] === message) continue;
    for (const part of message.split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/))
      if (/[A-Za-z]{3}/.test(part) && part.trim().length >= 6) words.add(part.trim());
  }
  return [...words];
}

/** What a party reads on the page now: its text, and the names and hints its controls carry. */
const readable = (page: Page) =>
  page.evaluate<string>(`[
    document.body.innerText,
    ...[...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')].flatMap((element) =>
      ['aria-label', 'title', 'placeholder', 'alt'].map((name) => element.getAttribute(name) ?? '')),
    document.title,
  ].join('\\n')`);

/** The English left on the page (an empty list when the page speaks only `language`). */
async function englishOn(page: Page, language: Language): Promise<string[]> {
  const text = await readable(page);
  return englishLeftIn(language).filter((words) => text.includes(words));
}

/**
 * The party's own language, everywhere on the signing page (issue 41): a browser that asks for
 * German, French, Polish or Arabic gets every string of the page, its dialogs and its thank-you in
 * that language on an English contract, with no English left; Arabic lays out from the right.
 */
describe('the signing page in the party’s language', () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  for (const language of ['de', 'fr', 'pl', 'ar'] as const) {
    it(`speaks ${language} from the first screen to the thank-you, with no English left`, async () => {
      const words = CATALOGUES[language].signing;
      const party = { name: 'Zofia Nowak', email: `zofia-${language}@example.test`, fields: FIELDS };
      const contract = await makeContract(env.t, [party], { language: 'en' });
      await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
      const context = await phoneContext(browser, { locale: language });
      await context.setExtraHTTPHeaders({ 'accept-language': `${language};q=1, en;q=0.5` });
      const page = await context.newPage();
      await page.addInitScript(`Object.defineProperty(navigator, 'languages', { get: () => ['${language}', 'en'] });`);
      await page.goto(contract.parties[0]!.contract_url);
      const bar = page.locator('.action-bar');
      await bar.getByRole('button', { name: words.sign }).waitFor({ timeout: 30_000 });
      await page.locator('.page-frame[data-state="loaded"]').first().waitFor({ timeout: 30_000 });

      const direction = language === 'ar' ? 'rtl' : 'ltr';
      expect(await page.evaluate<string>('document.documentElement.lang')).toBe(language);
      expect(await page.evaluate<string>('document.documentElement.dir')).toBe(direction);
      expect(await page.evaluate<string>('getComputedStyle(document.body).direction')).toBe(direction);
      if (language === 'ar') {
        // From the right: the bar's first control (in reading order) stands right of its last.
        const boxes = await bar
          .getByRole('button')
          .evaluateAll((buttons) =>
            buttons.filter((b) => b.getClientRects().length > 0).map((b) => b.getBoundingClientRect().x),
          );
        expect(boxes.length).toBeGreaterThan(1);
        expect(boxes[0]!).toBeGreaterThan(boxes.at(-1)!);
      }
      expect(await englishOn(page, language), 'the first screen').toEqual([]);

      // The signature: its dialog, typed.
      await bar.getByRole('button', { name: words.sign }).click();
      const markDialog = page.getByRole('dialog', { name: words.yourSignature });
      await markDialog.waitFor({ timeout: 30_000 });
      expect(await englishOn(page, language), 'the signature dialog').toEqual([]);
      await markDialog.getByRole('tab', { name: words.tabType }).click();
      await markDialog.getByLabel(words.nameLabel).fill('Zofia Nowak');
      expect(await englishOn(page, language), 'the signature dialog, typing').toEqual([]);
      await markDialog.getByRole('button', { name: words.useSignature }).click();

      // The confirmation, then the thank-you.
      const confirm = page.getByRole('dialog', { name: words.sign });
      await confirm.waitFor({ timeout: 30_000 });
      expect(await englishOn(page, language), 'the confirmation').toEqual([]);
      await confirm.getByLabel(words.agreeLabel).check();
      await confirm.getByRole('button', { name: words.sign }).click();
      // The only party: the page says the document is signed by everyone.
      await page.getByRole('heading', { name: words.completedTitle }).waitFor({ timeout: 30_000 });
      expect(await englishOn(page, language), 'the thank-you').toEqual([]);
      expect(await page.evaluate<string>('document.documentElement.dir')).toBe(direction);
      await context.close();
    }, 120_000);
  }
});
