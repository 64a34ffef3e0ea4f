import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract } from '../helpers/signing';
import { signOnPage } from '../helpers/signing-page';

/**
 * The real signing page and verify page in Chromium on the party surface (PUBLIC_PORT): all they
 * load is served there, and none of it needs the office surface.
 */
describe('the signing and verify pages on the party surface, in a browser', { timeout: 180_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer({ publicPort: 0, publicHost: '127.0.0.1' });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs with nothing loaded from elsewhere and nothing missing', async () => {
    const contract = await makeContract(t, [{ name: 'Eva Nordin', email: 'eva@nordin.test' }]);
    expect((await t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
    const link = contract.parties[0]!.contract_url;
    expect(link.startsWith(`${t.server.publicUrl}/sign/`)).toBe(true);

    const { page, context, problems } = await openPage(browser);
    const answers: Array<{ url: string; status: number }> = [];
    page.on('response', (response) => answers.push({ url: response.url(), status: response.status() }));
    await page.goto(link);
    await signOnPage(page, { signatureName: 'Eva Nordin' });
    await page
      .getByRole('heading', { name: 'The document is signed by everyone' })
      .or(page.getByRole('heading', { name: 'Thank you, you have signed' }))
      .first()
      .waitFor({ timeout: 30_000 });
    expect(answers.length).toBeGreaterThan(3);
    for (const answer of answers) {
      // Page images fetched by the page are shown from blob: URLs of the page's own origin.
      const url = answer.url.replace(/^blob:/, '');
      expect(url.startsWith(`${t.server.publicUrl}/`), answer.url).toBe(true);
      expect(answer.status, answer.url).toBeLessThan(400);
    }
    expect(problems).toEqual([]);

    answers.length = 0;
    await page.goto(`${t.server.publicUrl}/verify`);
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
    for (const answer of answers) expect(answer.status, answer.url).toBeLessThan(400);
    expect(problems).toEqual([]);
    await context.close();
  });
});
