import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { signedContract, waitForTimestampStatus } from '../helpers/evidence';
import { startTestServer, type TestServer } from '../helpers/server';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

describe('the office anchor and the clock warning in the admin UI', () => {
  let tsa: TsaServer;
  let t: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    tsa = await startTsaServer();
    t = await startTestServer({ tsaUrl: tsa.url });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await tsa?.close();
  });

  it('says how far the log is proven, and warns on every page while the clock is off (English and Swedish)', async () => {
    const contract = await signedContract(t);
    await waitForTimestampStatus(t, contract.self, 'signature');
    await vi.waitFor(
      async () => {
        const check = (await t.api('GET', `${contract.self}/activity_log/verification`)).body;
        expect(check.proven_through_sequence).toBe(check.entry_count);
      },
      { timeout: 30_000, interval: 100 },
    );

    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    const anchoring = page.locator('[data-testid="chain-anchoring"]');
    await anchoring.getByText(/proven by the timestamp authority/).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('[data-testid="clock-off"]').count()).toBe(0);

    // The office log and its anchors, on the settings page.
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const officeLog = page.getByRole('region', { name: 'Office log and anchors' });
    await officeLog
      .locator('[data-testid="office-log-state"][data-intact="true"]')
      .getByText(/office anchors verified against the authority’s tokens/)
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await officeLog.getByRole('cell', { name: 'user.created' }).waitFor();
    await officeLog.getByText(/newest office anchor timestamped/).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    expect(await auditAccessibility(page), 'office log').toEqual([]);

    // The PC's clock goes 5 minutes wrong; the next timestamp shows it, on whatever page the admin is.
    t.clock.shift(5 * 60_000);
    expect((await t.api('POST', '/api/settings/timestamps/test')).body.ok).toBe(true);
    await gotoAdmin(page, t.url, '/contracts', 'Contracts');
    const banner = page.locator('[data-testid="clock-off"]');
    await banner
      .getByText(/This PC’s clock differs from the timestamp authority’s by (29|30)\d s/)
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await fitsWidth(page)).toBe(true);
    expect(await auditAccessibility(page), 'clock warning').toEqual([]);
    await screenshot(page, 'clock-off-warning');

    await page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
    await page.reload();
    await banner.getByText(/Den här datorns klocka skiljer sig (29|30)\d s/).waitFor({ timeout: UI_TIMEOUT_MS });
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    await anchoring.getByText(/bevisade av tidsstämpelutfärdaren/).waitFor({ timeout: UI_TIMEOUT_MS });

    // Right again after the next timestamp: the warning goes.
    t.clock.reset();
    expect((await t.api('POST', '/api/settings/timestamps/test')).body.ok).toBe(true);
    await page.reload();
    await anchoring.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await banner.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 240_000);
});
