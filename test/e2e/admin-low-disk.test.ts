import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

/** An office whose disk fills hears of it on every page before it is full, and sees its data folder's room in the settings. */
describe("the data folder's disk in the admin UI", { timeout: 120_000 }, () => {
  let browser: Browser;
  let low: TestServer;
  let roomy: TestServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    // LOW_DISK_MB above any disk's size, and 0 (never low).
    low = await startTestServer({ lowDiskBytes: Number.MAX_SAFE_INTEGER });
    roomy = await startTestServer({ lowDiskBytes: 0 });
  });
  afterAll(async () => {
    await browser?.close();
    await low?.close();
    await roomy?.close();
  });

  it('warns on every page at 800 px in Swedish and leads to the settings, where the folder and its room show', async () => {
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, low.url, 'admin', 'correct horse');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await gotoAdmin(page, low.url, '/contracts', 'Avtal');
    const banner = page.getByTestId('low-disk-banner');
    await banner.getByText('Disken är nästan full').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await banner.textContent()).toMatch(/Bara \d+(,\d)? [MGT]iB är ledigt på disken med datamappen\./);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'low-disk-banner-sv-800');
    expect(await auditAccessibility(page), 'the warning in Swedish at 800 px').toEqual([]);

    await banner.getByRole('link').click();
    const space = page.getByTestId('data-folder-space');
    await space.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await space.textContent()).toContain(`Datamappen ${low.dataDir}:`);
    expect(await space.textContent()).toMatch(/ledigt av \d+(,\d)? [MGT]iB på dess disk\.$/);
    // On the settings page the warning stays, as plain text.
    expect(await banner.getByRole('link').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('says nothing while the disk has room, and shows its room in English', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, roomy.url, 'admin', 'correct horse');
    await gotoAdmin(page, roomy.url, '/settings', 'Settings');
    const space = page.getByTestId('data-folder-space');
    await space.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await space.textContent()).toMatch(
      new RegExp(
        `^Data folder ${roomy.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+(\\.\\d)? [MGT]iB free of \\d+(\\.\\d)? [MGT]iB on its disk\\.$`,
      ),
    );
    expect(await page.getByTestId('low-disk-banner').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
