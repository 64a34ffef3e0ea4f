import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './browser';

/** What a party enters on the signing page: text for its TEXT fields (in page order), whether it ticks its checkboxes, the name it signs with. */
export type PartyAnswers = { texts?: string[]; tick?: boolean; signatureName: string; screenshotName?: string };

/**
 * One party signs through the signing page as it is, in its own browser window: fills its
 * fields, types its name, agrees, signs, and waits for the thank-you. The one place the
 * signing page's controls are named, so a rebuilt page changes only this function.
 */
export async function signThroughSigningPage(browser: Browser, link: string, answers: PartyAnswers): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(link);
  await expect.poll(() => page.locator('.page-frame[data-rendered="true"]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  const texts = page.getByLabel(/^Text/);
  for (const [index, value] of (answers.texts ?? []).entries()) await texts.nth(index).fill(value);
  if (answers.tick) {
    const boxes = page.getByLabel(/^Tick/);
    for (let index = 0; index < (await boxes.count()); index += 1) await boxes.nth(index).check();
  }
  await page.getByLabel('Your name, as your signature').fill(answers.signatureName);
  await page.getByLabel(/agree to sign it electronically/).check();
  if (answers.screenshotName) await screenshot(page, answers.screenshotName);
  await page.getByRole('button', { name: 'Sign the document' }).click();
  await expect
    .poll(async () => (await page.getByRole('heading', { name: 'Thank you, you have signed' }).isVisible()) || (await page.getByRole('heading', { name: 'The document is signed by everyone' }).isVisible()), { timeout: 20_000 })
    .toBe(true);
  await context.close();
}
