import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, openPage, screenshot } from '../helpers/browser';
import { waitForDocument } from '../helpers/contract-page';
import { makeContract, type SigningEnv } from '../helpers/signing';
import { startSigningBrowser } from '../helpers/signing-browser';

describe('the new field types and labels in the admin field editor', { timeout: 180_000 }, () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('places radio buttons and a file upload with the keyboard, and gives them a label, a hint and options, at 800 px', async () => {
    const { t } = env;
    const contract = await makeContract(t, [{ name: 'Tor Tenant', email: 'tor@example.test', fields: [] }], {}, 1);
    const { page, context, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    expect(await waitForDocument(page)).toBe(1);
    const annotations = async () =>
      (await t.api('GET', `${contract.self}/annotations`)).body as Array<Record<string, unknown>>;

    // A tool chosen, Enter on the focused page places the field in its middle; the field takes the focus.
    await page.getByRole('button', { name: 'Radio buttons', exact: true }).click();
    await page
      .getByRole('group', { name: /^Page 1 of 1: click or press Enter to place a Radio buttons field/ })
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await annotations()).length).toBe(1);
    expect((await annotations())[0]).toMatchObject({ type: 'RADIO', options: ['Option A', 'Option B'], label: '' });

    const selected = page.getByRole('group', { name: 'Selected field' });
    await selected.getByLabel('Label').fill('Pet');
    await selected.getByLabel('Label').press('Enter');
    await selected.getByLabel('Hint for the party').fill('The one that lives with you');
    await selected.getByLabel('Options, one per line (at most 50)').focus();
    await selected.getByLabel('Options, one per line (at most 50)').fill('Cat\nDog\n\nHamster');
    await selected.getByLabel('Hint for the party').focus();
    await expect
      .poll(async () => (await annotations())[0])
      .toMatchObject({ label: 'Pet', hint: 'The one that lives with you', options: ['Cat', 'Dog', 'Hamster'] });
    // The field on the page says what it asks.
    expect(await page.locator('[data-field-id]').first().getAttribute('aria-label')).toMatch(/^Pet \(Radio buttons\)/);

    await page.getByRole('button', { name: 'File upload', exact: true }).click();
    await page.getByRole('group', { name: /File upload field/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await annotations()).length).toBe(2);
    await selected.getByLabel('Label').fill('Passport copy');
    await selected.getByLabel('Label').press('Enter');
    expect(await selected.getByLabel(/^Options/).count()).toBe(0);
    await expect
      .poll(async () => (await annotations()).find((field) => field.type === 'ATTACHMENT'))
      .toMatchObject({ label: 'Passport copy', options: null });

    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'admin-field-types-800');
    expect(await auditAccessibility(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
