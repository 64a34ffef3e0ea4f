import {
  devices,
  type Browser,
  type BrowserContext,
  type FrameLocator,
  type Locator,
  type Page,
} from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './browser';
import { makeContract, type MadeContract, type PartySpec, type SigningEnv } from './signing';

/** A contract with one party, sent without mail: it and the party's signing link. */
export async function sentToOneParty(
  env: SigningEnv,
  party: PartySpec,
): Promise<{ contract: MadeContract; link: string }> {
  const contract = await makeContract(env.t, [party]);
  expect((await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
  return { contract, link: contract.parties[0]!.contract_url };
}

/** A phone as parties mostly have: Chromium with the iPhone 13 profile (390x844, DPR 3, touch). */
export function phoneContext(browser: Browser, options: { locale?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({ ...devices['iPhone 13'], ...options });
}

/** Waits until this many page images have arrived and are shown. */
export async function waitForPagesDrawn(page: Page, count: number): Promise<void> {
  await expect
    .poll(() => page.locator('.page-frame[data-state="loaded"]').count(), { timeout: 30_000, interval: 100 })
    .toBe(count);
}

/** Presses Tab until the focused element has this accessible label; the page is usable without a mouse. */
export async function tabTo(page: Page, label: RegExp, limit = 60): Promise<void> {
  for (let press = 0; press < limit; press += 1) {
    await page.keyboard.press('Tab');
    // A string, so the page's code is not type-checked against Node's lib.
    const name = await page.evaluate<string>(`(() => {
      const active = document.activeElement;
      // The body (focus between the last control and the first) holds every word of the page.
      if (!active || ['BODY', 'HTML', 'DIALOG'].includes(active.tagName)) return '';
      const byId = active.id ? document.querySelector('label[for="' + active.id + '"]')?.textContent : '';
      return ((active.getAttribute('aria-label') ?? '') + ' ' + (byId ?? '') + ' ' + (active.textContent ?? '')).trim();
    })()`);
    if (label.test(name)) return;
  }
  throw new Error(`Tab never reached ${label}`);
}

/**
 * Draws strokes with a finger: real touch events through the DevTools protocol (which Chromium
 * turns into pointer events of type "touch"), in CSS pixels relative to the element's top-left.
 */
export async function drawWithTouch(
  page: Page,
  selector: string,
  strokes: Array<Array<[number, number]>>,
): Promise<void> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on the screen`);
  const session = await page.context().newCDPSession(page);
  for (const stroke of strokes) {
    const points = stroke.map(([x, y]) => ({ x: box.x + x, y: box.y + y }));
    await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [points[0]!] });
    for (const point of points.slice(1))
      await session.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
    await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
  await session.detach();
}

/**
 * What a party does on the signing page: text for the required TEXT and NAME fields it is led to
 * (in page order), whether it ticks the required boxes, the name it types as its signature (else
 * the name the page offers), a screenshot just before it confirms.
 */
export type PartyAnswers = { texts?: string[]; tick?: boolean; signatureName?: string; screenshotName?: string };

/**
 * Waits until the page has stopped scrolling (the same offset for three frames in a row). Sign
 * leads to the next field with a smooth scroll, which moves the bar's buttons while it lasts; on a
 * busy machine two frames can report the same place mid-scroll, so a click that Playwright
 * judged stable could land where the button was, not where it is.
 */
async function scrollSettled(within: Locator): Promise<void> {
  await within.evaluate(SCROLL_SETTLED);
}
const SCROLL_SETTLED = `new Promise((resolve) => {
  let last = '';
  let still = 0;
  const look = () => {
    const offset = [scrollX, scrollY, document.querySelector('.pages-scroll')?.scrollLeft].join();
    still = offset === last ? still + 1 : 0;
    last = offset;
    if (still >= 3) resolve();
    else requestAnimationFrame(look);
  };
  look();
})`;

/**
 * One party signs on the signing page open in `page` (or in a frame), the way a party does:
 * presses Sign, fills each field the page leads it to, types its signature, agrees and confirms.
 * What follows (the thank-you, a refusal, a frame's return URL) is the caller's to wait for.
 * The one place tests name the signing page's controls for signing.
 */
export async function signOnPage(page: Page | FrameLocator, answers: PartyAnswers = {}): Promise<void> {
  const texts = [...(answers.texts ?? [])];
  const bar = page.locator('.action-bar');
  const left = bar.getByRole('alert');
  const markDialog = page.getByRole('dialog', { name: 'Your signature' });
  const confirm = page.getByRole('dialog', { name: 'Sign the document' });
  await page.locator('.page-frame[data-state="loaded"]').first().waitFor({ timeout: 30_000 });
  // Each press of Sign leads to the next field still to fill in, until the signature is asked for.
  for (;;) {
    await scrollSettled(bar);
    await bar.getByRole('button', { name: 'Sign the document' }).click();
    await left.or(markDialog).or(confirm).first().waitFor({ timeout: 30_000 });
    if (!(await left.isVisible())) break;
    const editor = bar.locator('.editor');
    if ((await editor.getByRole('checkbox').count()) > 0) {
      if (!answers.tick) throw new Error('The page asks for a tick the answers do not give.');
      await editor.getByRole('checkbox').check();
    } else {
      const value = texts.shift();
      if (value === undefined)
        throw new Error(`The page asks for more text than the answers give: ${await editor.textContent()}`);
      await editor.getByRole('textbox').fill(value);
    }
  }
  if (await markDialog.isVisible()) {
    await markDialog.getByRole('tab', { name: 'Type' }).click();
    if (answers.signatureName) await markDialog.getByLabel('Your name').fill(answers.signatureName);
    await markDialog.getByRole('button', { name: 'Use this signature' }).click();
  }
  await confirm.getByLabel(/agree to sign it electronically/).check();
  if (answers.screenshotName && 'screenshot' in page) await screenshot(page, answers.screenshotName);
  await confirm.getByRole('button', { name: 'Sign the document' }).click();
}

/** One party signs through its link in a browser window of its own (a laptop's), waits for the thank-you, and closes it. */
export async function signThroughSigningPage(
  browser: Browser,
  link: string,
  answers: PartyAnswers = {},
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  try {
    const page = await context.newPage();
    await page.goto(link);
    await signOnPage(page, answers);
    await page
      .getByRole('heading', { name: 'Thank you, you have signed' })
      .or(page.getByRole('heading', { name: 'The document is signed by everyone' }))
      .first()
      .waitFor({ timeout: 30_000 });
  } finally {
    await context.close();
  }
}
