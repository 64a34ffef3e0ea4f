import type { Browser, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startHoldingProxy } from '../helpers/holding-proxy';
import { makeContract, type SigningEnv } from '../helpers/signing';
import { phoneContext } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

const PAGES = 50;
const PAGE_IMAGE = /\/pages\/[^/]+\/(\d+)-(\d+)\.webp$/;
const SIGNATURE = { type: 'SIGNATURE', pdf_page: PAGES, pos_x: 60, pos_y: 640, width: 220, height: 56 };

/** The page a request's image is of, or undefined for any other request. */
const pageOf = (request: Request) => {
  const match = PAGE_IMAGE.exec(new URL(request.url()).pathname);
  return match ? Number(match[1]) : undefined;
};

/** Every page image the browser asks for, in order. */
function watchImages(page: Page) {
  const asked: number[] = [];
  page.on('request', (request) => {
    const number = pageOf(request);
    if (number !== undefined) asked.push(number);
  });
  return { asked };
}

/** The box of a page once its picture is shown. */
const loaded = (page: Page, number: number) => page.locator(`.page-frame[data-page="${number}"][data-state="loaded"]`);

describe('a far field of a long contract on a phone', { timeout: 180_000 }, () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  /** A sent 50-page contract whose one party has these fields; its signing link. */
  async function linkFor(fields: Array<Record<string, unknown>>): Promise<string> {
    const contract = await makeContract(env.t, [{ name: 'Åsa Öberg', email: 'asa@example.test', fields }], {}, PAGES);
    expect((await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
    return (await env.t.api('GET', contract.parties[0]!.self)).body.contract_url as string;
  }

  it('fetches the page of the field jumped to first, and never the pages passed over', async () => {
    const link = await linkFor([
      { type: 'TEXT', pdf_page: 1, pos_x: 60, pos_y: 520, width: 220, height: 22 },
      SIGNATURE,
    ]);
    const context = await phoneContext(browser, { locale: 'en-GB' });
    const page = await context.newPage();
    const images = watchImages(page);
    await page.goto(link);
    await loaded(page, 1).waitFor({ timeout: 30_000 });
    // The pages next to the first screen follow the first page; the party is on page 1.
    await loaded(page, 2).waitFor({ timeout: 30_000 });
    const beforeJump = images.asked.length;
    expect(Math.max(...images.asked)).toBeLessThanOrEqual(4);

    // › goes to the text on page 1, › again to the signature on page 50.
    await page.getByRole('button', { name: 'Next field' }).click();
    await page.getByLabel('Text (Required)', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Next field' }).click();
    await loaded(page, 50).waitFor({ timeout: 30_000 });
    // On screen, not merely on its way there.
    const box = (await page.locator('.field-signature').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    // The page above it, on screen too, comes after it.
    await loaded(page, 49).waitFor({ timeout: 30_000 });
    const afterJump = images.asked.slice(beforeJump);
    expect(afterJump[0]).toBe(50);
    expect(afterJump).toContain(49);
    expect(afterJump.filter((number) => number < 48)).toEqual([]);
    // Not a picture of the pages in between was asked for, then or since.
    expect(images.asked.filter((number) => number > 4 && number < 48)).toEqual([]);

    // "Go to" a page in the middle: that page first.
    const fromList = images.asked.length;
    await page.getByRole('combobox', { name: 'Go to…' }).selectOption({ label: 'Page 25 of 50' });
    await loaded(page, 25).waitFor({ timeout: 30_000 });
    const listed = images.asked.slice(fromList);
    expect(listed[0]).toBe(25);
    // Only it and the pages within a screen of it; none of those between it and page 50.
    expect(listed.filter((number) => number < 24 || number > 29)).toEqual([]);
    // A field from the list becomes the current one, with its editor.
    await page.getByRole('combobox', { name: 'Go to…' }).selectOption({ label: 'Text (Required), page 1' });
    await expect.poll(() => page.getByLabel('Text (Required)', { exact: true }).isVisible()).toBe(true);
    await context.close();
  });

  it('sends the answer at once while page images are still coming, and stops them', async () => {
    const link = new URL(await linkFor([SIGNATURE]));
    // Every page image but the first is held on its way: the connections stay busy with them when the party signs.
    const proxy = await startHoldingProxy(link.origin, (path) => {
      const match = PAGE_IMAGE.exec(path);
      return !!match && match[1] !== '1';
    });
    const context = await phoneContext(browser, { locale: 'en-GB' });
    try {
      const page = await context.newPage();
      await page.goto(`${proxy.url}${link.pathname}`);
      await loaded(page, 1).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Next field' }).click();
      await expect.poll(() => proxy.held().some((path) => PAGE_IMAGE.exec(path)?.[1] === '50')).toBe(true);
      // Page 50 alone: the first screen's neighbours were given up for it.
      expect(proxy.held().map((path) => PAGE_IMAGE.exec(path)?.[1])).toEqual(['50']);

      await page.getByRole('button', { name: 'Sign the document' }).click();
      const markDialog = page.getByRole('dialog', { name: 'Your signature' });
      await markDialog.getByRole('tab', { name: 'Type' }).click();
      await markDialog.getByRole('button', { name: 'Use this signature' }).click();
      const confirm = page.getByRole('dialog', { name: 'Sign the document' });
      await confirm.getByLabel(/agree to sign it electronically/).check();
      await confirm.getByRole('button', { name: 'Sign the document' }).click();
      await page.getByRole('heading', { name: 'The document is signed by everyone' }).waitFor({ timeout: 30_000 });
      // Signed while no page image after the first had come, and the image pending then was stopped for the answer.
      expect(await loaded(page, 50).count()).toBe(0);
      expect(proxy.abandoned().filter((path) => PAGE_IMAGE.exec(path)?.[1] === '50').length).toBeGreaterThanOrEqual(1);
      const accept = proxy.seen().findIndex((path) => path.endsWith('/accept'));
      expect(accept).toBeGreaterThan(proxy.seen().findIndex((path) => PAGE_IMAGE.exec(path)?.[1] === '50'));
      // Once answered, the page on screen comes after all.
      proxy.release();
      await loaded(page, 50).waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
      await proxy.close();
    }
  });
});
