import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../shared/i18n/catalogues';
import type { Language } from '../../shared/api/enums';
import { wordBoxes } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { makeContract, signingClient, waitForMailsTo, type SigningEnv } from '../helpers/signing';
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

  it('mails an Arabic contract’s party a mail that reads from the right, and seals an audit page that does', async () => {
    const address = 'layla@example.test';
    const contract = await makeContract(env.t, [{ name: 'Layla Haddad', email: address }], { language: 'ar' });
    expect((await env.t.api('POST', `${contract.self}/send`)).status).toBe(200);
    const [invitation] = await waitForMailsTo(env.smtp, address, 1);
    const reader = await browser.newContext({ viewport: { width: 600, height: 800 } });
    const mail = await reader.newPage();
    await mail.setContent(String(invitation!.mail.html));
    // Its first word (the name in it may come wrapped in bidi isolation marks).
    const greeting = CATALOGUES.ar.mail.greeting.split(' ')[0]!;
    // The greeting's text stands in the right half of the mail, as Arabic is read.
    const box = await mail.evaluate<{ left: number; right: number; width: number }>(`(() => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        if (!walker.currentNode.textContent.includes(${JSON.stringify(greeting)})) continue;
        const range = document.createRange();
        range.selectNodeContents(walker.currentNode);
        const rect = range.getBoundingClientRect();
        // A mail's hidden preview line holds the words too: the one on show counts.
        if (rect.width === 0) continue;
        return { left: rect.left, right: rect.right, width: document.documentElement.clientWidth };
      }
      return { left: -1, right: -1, width: 0 };
    })()`);
    expect(box.left, 'the greeting in the mail').toBeGreaterThan(box.width / 2);
    await reader.close();

    const party = signingClient(contract.parties[0]!.contract_url);
    expect((await party.state()).status).toBe(200);
    expect((await party.accept({}, 'Layla Haddad')).status).toBe(200);
    const signedPdf = () =>
      fetch(`${env.t.url}${contract.self}/signed_pdf`, {
        headers: { authorization: `token ${env.t.adminKey}`, 'accept-api-version': '1' },
      });
    await expect.poll(async () => (await signedPdf()).status, { timeout: 90_000 }).toBe(200);
    const file = path.join(makeTempDir(), 'signed-ar.pdf');
    fs.writeFileSync(file, Buffer.from(await (await signedPdf()).arrayBuffer()));
    // The audit page follows the contract's two pages; its title ends at the right margin.
    const title = CATALOGUES.ar.audit.title.split(' ');
    // poppler reads the drawn glyphs in the order they stand on the page (right to left), so a word
    // comes out reversed: its place is what is checked here.
    const reversed = (word: string) => [...word].reverse().join('');
    const matches = wordBoxes(file).filter(
      (word) => word.page === 3 && (title.includes(word.word) || title.includes(reversed(word.word))),
    );
    // The title's words, set larger than the lines that repeat some of them.
    const words = matches.filter((word) => word.height === Math.max(...matches.map((each) => each.height)));
    expect(words.length, 'the title of the audit page').toBeGreaterThan(0);
    const pageWidth = 595;
    expect(Math.min(...words.map((word) => word.x))).toBeGreaterThan(pageWidth / 3);
    expect(Math.max(...words.map((word) => word.x + word.width))).toBeGreaterThan(pageWidth - 100);
  }, 180_000);

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
