import { devices, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** A phone as parties mostly have: Chromium with the iPhone 13 profile (390x844, DPR 3, touch). */
export function phoneContext(browser: Browser, options: { locale?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({ ...devices['iPhone 13'], ...options });
}

/** Waits until this many page images have arrived and are shown. */
export async function waitForPagesDrawn(page: Page, count: number): Promise<void> {
  await expect.poll(() => page.locator('.page-frame[data-state="loaded"]').count(), { timeout: 30_000, interval: 100 }).toBe(count);
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
export async function drawWithTouch(page: Page, selector: string, strokes: Array<Array<[number, number]>>): Promise<void> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on the screen`);
  const session = await page.context().newCDPSession(page);
  for (const stroke of strokes) {
    const points = stroke.map(([x, y]) => ({ x: box.x + x, y: box.y + y }));
    await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [points[0]!] });
    for (const point of points.slice(1)) await session.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
    await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
  await session.detach();
}
