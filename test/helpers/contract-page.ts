import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { formatTimestamp } from '../../shared/time';
import { auditAccessibility, screenshot, type WatchedPage } from './browser';
import { fitsWidth } from './admin-ui';
import type { TestServer } from './server';

/** The contract page's status, as its status panel says it (draft, sent, signed, rejected, expired). */
export const statusOf = (page: Page) => page.locator('.status-panel').getAttribute('data-status');

/** Where a party stands on the contract page (the row's data-state: invited, opened, signed, …). */
export const partyStateOf = (page: Page, name: string) =>
  page
    .getByTestId('party-row')
    .filter({ has: page.locator('.cell-title', { hasText: new RegExp(`^${name}`) }) })
    .getAttribute('data-state');

export async function waitForStatus(page: Page, status: string): Promise<void> {
  await expect.poll(() => statusOf(page), { timeout: 15_000 }).toBe(status);
}

export async function waitForPartyState(page: Page, name: string, state: string): Promise<void> {
  await expect.poll(() => partyStateOf(page, name), { timeout: 15_000 }).toBe(state);
}

/** Waits until the document card has drawn every page of its PDF; returns how many. */
export async function waitForDocument(page: Page): Promise<number> {
  const pages = page.locator('.pdf-pages[data-pages]');
  await expect.poll(() => pages.count(), { timeout: 15_000 }).toBe(1);
  return Number(await pages.getAttribute('data-pages'));
}

/**
 * The same contract in each window (desktop and 200 % zoom) once it shows `status`: screenshot
 * `contract-<name>[-zoom200]`, no sideways scrolling, no WCAG A/AA violation, no console error.
 */
export async function recordState(windows: WatchedPage[], status: string, name: string): Promise<void> {
  for (const { page, problems } of windows) {
    const isZoomed = page.viewportSize()?.width === 640;
    await waitForStatus(page, status);
    await waitForDocument(page);
    await screenshot(page, `contract-${name}${isZoomed ? '-zoom200' : ''}`);
    expect(await fitsWidth(page), `${name} fits the width`).toBe(true);
    expect(await auditAccessibility(page), `${name}${isZoomed ? ' at 200 %' : ''}`).toEqual([]);
    expect(problems).toEqual([]);
  }
}

/** An API timestamp `seconds` from now in the server's time zone. */
export const timestampIn = (t: TestServer, seconds: number) =>
  formatTimestamp(Date.now() + seconds * 1000, t.server.ctx.config.timeZone);

/** Marks the page, so that a later check can tell that it was never reloaded. */
export const markPage = (page: Page) => page.evaluate('window.__notReloaded = true');
export const isSamePage = (page: Page) => page.evaluate<boolean>('window.__notReloaded === true');
