import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../shared/time';
import { auditAccessibility, openPage, screenshot } from '../helpers/browser';
import { UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { makeContract, signingClient, type SigningEnv } from '../helpers/signing';
import { phoneContext, signOnPage, waitForPagesDrawn } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

describe('the signing page as things change around it', () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('says how long to wait when a new code is asked for too soon, instead of calling the code wrong', async () => {
    const contract = await makeContract(env.t, [{ name: 'Kim Kod', email: 'kim@example.test' }], {
      require_auth: 'EMAIL_CODE',
    });
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const { page, context, problems } = await openPage(browser);
    await page.goto(contract.parties[0]!.contract_url);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await expect.poll(() => page.getByLabel('Code').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Send a new code' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^A code was sent a moment ago\. You can ask for a new one in \d+ s\.$/);
    expect(await page.getByRole('button', { name: 'Send a new code' }).isDisabled()).toBe(true);
    // It counts down.
    const first = Number(/in (\d+) s/.exec((await page.getByRole('alert').textContent()) ?? '')?.[1]);
    await expect
      .poll(async () => Number(/in (\d+) s/.exec((await page.getByRole('alert').textContent()) ?? '')?.[1]), {
        timeout: 5_000,
        interval: 200,
      })
      .toBeLessThan(first);
    await screenshot(page, 'signing-code-wait');
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('notices the link expiring while it is open: the answer buttons go and the expiry is explained', async () => {
    // Far enough ahead that a busy machine still opens the page before it (the page then waits).
    const expireAt = Math.ceil((Date.now() + 25_000) / 1000) * 1000;
    const contract = await makeContract(env.t, [{ name: 'Lo Late', email: 'lo@example.test' }], {
      expire_time: formatTimestamp(expireAt, 'Europe/Stockholm'),
    });
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(contract.parties[0]!.contract_url);
    await waitForPagesDrawn(page, 2);
    expect(await page.getByRole('button', { name: 'Sign the document' }).isEnabled()).toBe(true);
    // No reload, no click: the page asks again when the link closes.
    await expect
      .poll(() => page.getByRole('heading', { name: 'The signing link has expired' }).isVisible(), {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Sign the document' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reject' }).count()).toBe(0);
    await context.close();
  }, 180_000);

  it('notices another party rejecting: when shown again, and when its own answer is refused', async () => {
    const contract = await makeContract(env.t, [
      { name: 'Mia Mild', email: 'mia@example.test' },
      { name: 'Nils Nej', email: 'nils@example.test' },
    ]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const { page, context } = await openPage(browser);
    await page.goto(contract.parties[0]!.contract_url);
    await waitForPagesDrawn(page, 2);
    const nils = signingClient(contract.parties[1]!.contract_url);
    await nils.state();
    expect((await nils.reject('Wrong rent')).status).toBe(200);
    // The page has not asked yet: signing is refused by the server, and the page shows why.
    await signOnPage(page);
    await expect
      .poll(() => page.getByRole('heading', { name: 'The document was rejected' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Sign the document' }).count()).toBe(0);

    const other = await makeContract(env.t, [
      { name: 'Olle Open', email: 'olle@example.test' },
      { name: 'Pia Nej', email: 'pia@example.test' },
    ]);
    await env.t.api('POST', `${other.self}/send`, { body: { silent: true } });
    await page.goto(other.parties[0]!.contract_url);
    await waitForPagesDrawn(page, 2);
    const pia = signingClient(other.parties[1]!.contract_url);
    await pia.state();
    await pia.reject('No');
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await expect
      .poll(() => page.getByRole('heading', { name: 'The document was rejected' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await context.close();
  }, 180_000);

  it('says what to do without JavaScript, and styles the page of a link that is not valid', async () => {
    const contract = await makeContract(env.t, [{ name: 'Per Plain', email: 'per@example.test' }]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(contract.parties[0]!.contract_url);
    await page.getByRole('heading', { name: 'Turn on JavaScript to sign' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'signing-noscript');
    await context.close();

    const { page: invalid, context: other } = await openPage(browser);
    await invalid.goto(`${env.t.url}/sign/${'x'.repeat(43)}`);
    await invalid.getByRole('heading', { name: 'This signing link is not valid' }).waitFor({ timeout: UI_TIMEOUT_MS });
    // Styled by the page's own sheet: the card has the page's white, rounded look.
    expect(await invalid.evaluate<string>("getComputedStyle(document.querySelector('main')).borderRadius")).toBe(
      '10px',
    );
    expect(await auditAccessibility(invalid)).toEqual([]);
    await screenshot(invalid, 'signing-invalid-link');
    await other.close();
  }, 180_000);
});
