import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** Signs in through the sign-in page and waits for the signed-in frame (or the office step). */
export async function signInThroughPage(page: Page, baseUrl: string, username: string, password: string, options: { isOfficeStepKept?: boolean } = {}): Promise<void> {
  await page.goto(`${baseUrl}/admin/`);
  await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect
    // Signing in runs scrypt: on a busy machine that alone can take longer than vitest's default poll.
    .poll(async () => (await page.getByRole('navigation', { name: 'Main' }).isVisible()) || (await page.getByRole('heading', { name: 'About your office' }).isVisible()), {
      timeout: 15_000,
      interval: 50,
    })
    .toBe(true);
  if (!options.isOfficeStepKept) await completeOfficeDetails(page);
}

/** Gives the office its details when the UI asks for them (an administrator made with the CLI). */
export async function completeOfficeDetails(page: Page): Promise<void> {
  if (!(await page.getByRole('heading', { name: 'About your office' }).isVisible())) return;
  await page.getByLabel('Office name').fill('Berg & Partners Advokatbyrå');
  await page.getByLabel('Office e-mail').fill('office@berg.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
}

export async function gotoAdmin(page: Page, baseUrl: string, route: string, heading: string): Promise<void> {
  await page.goto(`${baseUrl}/admin${route}`);
  await expect.poll(() => page.getByRole('heading', { name: heading, level: 1 }).isVisible()).toBe(true);
}

/** True when the page needs no sideways scrolling of the whole window (tables scroll inside their frame). */
export async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1');
}
