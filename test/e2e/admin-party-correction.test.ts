import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, openPage, screenshot } from '../helpers/browser';
import { linkIn, makeContract, waitForMailsTo, type SigningEnv } from '../helpers/signing';
import { startSigningBrowser } from '../helpers/signing-browser';

describe('correcting a party from the contract page', { timeout: 120_000 }, () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('sends a new invitation to the corrected address and closes the old link, in Swedish at 800 px', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(t, [{ name: 'Eva Nordin', email: 'eva@nordni.test' }]);
    await t.api('POST', `${contract.self}/send`, { body: {} });
    const [first] = await waitForMailsTo(smtp, 'eva@nordni.test', 1);

    const { page, context, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    await page.getByRole('button', { name: 'Rätta Eva Nordin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rätta Eva Nordin' });
    await dialog.getByLabel('E-post').fill('eva@nordin.test');
    await dialog.getByLabel('Orsak').fill('Felskriven adress');
    await screenshot(page, 'party-correction-sv-800');
    expect(await auditAccessibility(page), 'correction dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Rätta och skicka igen' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [second] = await waitForMailsTo(smtp, 'eva@nordin.test', 1);
    expect((await fetch(linkIn(first!))).status).toBe(404);
    expect((await fetch(linkIn(second!))).status).toBe(200);
    await page.getByText('eva@nordin.test').first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
