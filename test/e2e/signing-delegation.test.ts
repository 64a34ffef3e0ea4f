import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, openPage, screenshot } from '../helpers/browser';
import { linkIn, makeContract, signingClient, waitForMailsTo, type SigningEnv } from '../helpers/signing';
import { signThroughSigningPage, waitForPagesDrawn } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

describe('handing the turn to someone else from the signing page', { timeout: 180_000 }, () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('names the new person with a reason; they are invited and sign, the old link is refused, and the office sees it in Swedish', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(t, [{ name: 'Signe Svensson', email: 'signe@example.test' }], {
      allow_delegation: true,
    });
    await t.api('POST', `${contract.self}/send`, { body: {} });
    const oldLink = linkIn((await waitForMailsTo(smtp, 'signe@example.test', 1))[0]!);

    const { page, context, problems } = await openPage(browser);
    await page.goto(oldLink);
    await waitForPagesDrawn(page, 1);
    await page.getByRole('button', { name: 'Someone else should sign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Hand your turn to someone else' });
    await dialog.getByLabel('Their name').fill('Bo Ek');
    // Neither e-mail nor phone: the page says what is missing and sends nothing.
    await dialog.getByLabel('Why').fill('Bo holds the power of attorney');
    await dialog.getByRole('button', { name: 'Hand over' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/e-mail address or a mobile number/);
    await dialog.getByLabel('Their e-mail').fill('bo@example.test');
    expect(await auditAccessibility(page), 'delegation dialog').toEqual([]);
    await screenshot(page, 'signing-delegation-dialog');
    await dialog.getByRole('button', { name: 'Hand over' }).click();
    await page.getByRole('heading', { name: 'Handed over to Bo Ek' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();

    expect((await fetch(oldLink)).status).toBe(404);
    expect((await signingClient(oldLink).state()).status).toBe(404);
    const newLink = linkIn((await waitForMailsTo(smtp, 'bo@example.test', 1))[0]!);
    await signThroughSigningPage(browser, newLink, { signatureName: 'Bo Ek' });
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);

    const office = await openPage(browser);
    await office.page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(office.page, t.url, 'admin', 'correct horse');
    await office.page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await gotoAdmin(office.page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    const row = office.page.locator('[data-testid="activity-row"][data-event="party.delegated"]');
    await row.getByText('Part lämnade över till någon annan').waitFor();
    expect(await row.textContent()).toMatch(
      /från: Signe Svensson, signe@example\.test · orsak: Bo holds the power of attorney · till: Bo Ek, bo@example\.test/,
    );
    expect(office.problems).toEqual([]);
    await office.context.close();
  });

  it('lets the office allow delegation and set metadata on a draft from the contract page at 800 px', async () => {
    const { t } = env;
    const contract = await makeContract(t, [{ name: 'Ada Draft', email: 'ada@example.test' }], {
      metadata: { order_id: 'A-1', stale: 'x' },
    });
    const { page, context, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    const details = page.getByRole('form', { name: 'Details' });
    const metadata = details.getByLabel('Metadata');
    expect(await metadata.inputValue()).toBe('order_id=A-1\nstale=x');
    await metadata.fill('order_id=A-2\nregion north');
    await details.getByLabel('Parties may hand their turn to someone else').check();
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByText('Write each line as key=value.').waitFor();
    await metadata.fill('order_id=A-2\nregion=north');
    expect(await auditAccessibility(page), 'details with metadata').toEqual([]);
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = (await t.api('GET', contract.self)).body;
    expect(saved.metadata).toEqual({ order_id: 'A-2', region: 'north' });
    expect(saved.allow_delegation).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
