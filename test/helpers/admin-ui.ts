import type { Page } from 'playwright-core';

/** How long a browser test waits for something to appear: generous, because a loaded machine is slow, and never a fixed sleep. */
export const UI_TIMEOUT_MS = 30_000;

/** Signs in through the sign-in page and waits for the signed-in frame (or the office step). */
export async function signInThroughPage(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
  options: { isOfficeStepKept?: boolean } = {},
): Promise<void> {
  await page.goto(`${baseUrl}/admin/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: UI_TIMEOUT_MS });
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Waits for the page itself (Playwright watches the DOM), however long a busy machine takes.
  await page
    .getByRole('navigation', { name: 'Main' })
    .or(page.getByRole('heading', { name: 'About your office' }))
    .first()
    .waitFor({ timeout: UI_TIMEOUT_MS });
  if (!options.isOfficeStepKept) await completeOfficeDetails(page);
}

/** Gives the office its details when the UI asks for them (an administrator made with the CLI). */
export async function completeOfficeDetails(page: Page): Promise<void> {
  if (!(await page.getByRole('heading', { name: 'About your office' }).isVisible())) return;
  await page.getByLabel('Office name').fill('Berg & Partners Advokatbyrå');
  await page.getByLabel('Office e-mail').fill('office@berg.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: UI_TIMEOUT_MS });
}

export async function gotoAdmin(page: Page, baseUrl: string, route: string, heading: string): Promise<void> {
  await page.goto(`${baseUrl}/admin${route}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
}

/** True when the page needs no sideways scrolling of the whole window (tables scroll inside their frame). */
export async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1');
}
