import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../helpers/browser';
import { makeContract, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { signOnPage } from '../helpers/signing-page';

const EXAMPLE = path.resolve(import.meta.dirname, '../../docs/examples/embed.html');

/** An integrator's web app: a plain HTTP server of its own (another origin) serving the example page. */
async function startIntegrator(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (!req.url?.startsWith('/embed.html')) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(EXAMPLE));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the signing page inside an integrator web app', () => {
  let env: SigningEnv;
  let browser: Browser;
  let allowed: Awaited<ReturnType<typeof startIntegrator>>;
  let stranger: Awaited<ReturnType<typeof startIntegrator>>;
  beforeAll(async () => {
    env = await startSigningEnv();
    browser = await launchBrowser();
    allowed = await startIntegrator();
    stranger = await startIntegrator();
  });
  afterAll(async () => {
    await browser.close();
    await allowed.close();
    await stranger.close();
    await env.close();
  }, 180_000);

  it('runs docs/examples/embed.html on another origin: the party signs in the frame, the parent hears "signed", the frame goes to the return URL', async () => {
    const saved = await env.t.api('PUT', '/api/settings/general', {
      body: { signing_frame_origins: [allowed.origin] },
    });
    expect(saved.status).toBe(200);
    const contract = await makeContract(env.t, [{ name: 'Ines Inre', email: 'ines@example.test' }]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const link = contract.parties[0]!.contract_url;

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${allowed.origin}/embed.html?link=${encodeURIComponent(link)}&return=1`);
    await expect
      .poll(() => page.locator('#events li[data-event="loaded"]').count(), { timeout: 20_000, interval: 100 })
      .toBe(1);
    const frame = page.frameLocator('#signing');
    await signOnPage(frame);
    await expect
      .poll(() => page.locator('#events li[data-event="signed"]').count(), { timeout: 20_000, interval: 100 })
      .toBe(1);
    expect(await page.locator('#status').textContent()).toBe(`Signed: ${contract.parties[0]!.self}`);
    expect(await page.locator('#events li').allTextContents()).toEqual(['loaded (ready)', 'signed (completed)']);
    await screenshot(page, 'signing-embedded');
    // Then the return URL (on the allowed origin) opens in the frame, saying what happened.
    await expect
      .poll(
        () =>
          page
            .frames()
            .map((each) => each.url())
            .find((url) => url.includes('signdesk_event=')),
        { timeout: 15_000, interval: 100 },
      )
      .toBe(`${allowed.origin}/embed.html?returned=1&signdesk_event=signed`);
    // The example, opened as the return page inside its own frame, shows the outcome only: no
    // second copy of "Your app" with a frame of its own.
    const returned = page.frameLocator('#signing');
    await returned.locator('#returned').waitFor({ timeout: 15_000 });
    expect(await returned.locator('#returned').textContent()).toBe('Thank you: the document is signed.');
    expect(await returned.locator('iframe, aside, h1').count()).toBe(0);
    await screenshot(page, 'signing-embedded-returned');
    await context.close();
  }, 180_000);

  it('refuses to be framed by an origin the admin did not allow, and tells it nothing', async () => {
    await env.t.api('PUT', '/api/settings/general', { body: { signing_frame_origins: [allowed.origin] } });
    const contract = await makeContract(env.t, [{ name: 'Jon Jonsson', email: 'jon@example.test' }]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => blocked.push(message.text()));
    await page.goto(`${stranger.origin}/embed.html?link=${encodeURIComponent(contract.parties[0]!.contract_url)}`);
    await expect
      .poll(() => blocked.some((text) => /frame-ancestors/.test(text)), { timeout: 15_000, interval: 100 })
      .toBe(true);
    expect(await page.locator('#events li').count()).toBe(0);
    await context.close();
  }, 180_000);
});
