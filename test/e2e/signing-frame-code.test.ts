import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../helpers/browser';
import { UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { makeContract, mailsTo, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { signOnPage } from '../helpers/signing-page';

const EXAMPLE = path.resolve(import.meta.dirname, '../../docs/examples/embed.html');

/**
 * The integrator's web app on another SITE: SignDesk's links are on 127.0.0.1, this page is
 * served as http://localhost:<port>. Browsers send no SameSite cookie to such a frame, and no
 * cookie at all over plain HTTP (SameSite=None needs Secure).
 */
async function startCrossSiteIntegrator(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (!req.url?.startsWith('/embed.html')) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(EXAMPLE));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the one-time code inside a frame of another site', () => {
  let env: SigningEnv;
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startCrossSiteIntegrator>>;
  beforeAll(async () => {
    env = await startSigningEnv();
    browser = await launchBrowser();
    app = await startCrossSiteIntegrator();
    const saved = await env.t.api('PUT', '/api/settings/general', { body: { signing_frame_origins: [app.origin] } });
    expect(saved.status, saved.text).toBe(200);
  });
  afterAll(async () => {
    await browser.close();
    await app.close();
    await env.close();
  }, 180_000);

  async function codeContract(name: string, email: string) {
    const contract = await makeContract(env.t, [{ name, email }], { require_auth: 'EMAIL_CODE' });
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    expect(new URL(contract.parties[0]!.contract_url).hostname).toBe('127.0.0.1');
    return contract;
  }

  /** Asks for a code in the frame and enters the one the mail brought. */
  async function enterCode(frame: FrameLocator, email: string): Promise<void> {
    const before = mailsTo(env.smtp, email).length;
    await frame.getByRole('button', { name: 'Send me a code' }).click();
    await expect.poll(() => mailsTo(env.smtp, email).length, { timeout: 15_000 }).toBeGreaterThan(before);
    const code = /Enter the code (\d{6})/.exec(mailsTo(env.smtp, email).at(-1)?.mail.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await frame.getByLabel('Code').fill(code!);
    await frame.getByRole('button', { name: 'Open the document' }).click();
  }

  const openEmbedded = async (page: Page, link: string) => {
    await page.goto(`${app.origin}/embed.html?link=${encodeURIComponent(link)}`);
    return page.frameLocator('#signing');
  };

  it('reaches the document after the code and signs in the frame', async () => {
    const contract = await codeContract('Frida Fram', 'frida@example.test');
    const link = contract.parties[0]!.contract_url;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const frame = await openEmbedded(page, link);
    await enterCode(frame, 'frida@example.test');
    // The pages arrive in the frame (they failed here while the code lived only in a SameSite cookie),
    // the first one too, which comes through the page loader with the session's header.
    await frame.locator('.page-frame[data-page="1"][data-state="loaded"]').waitFor({ timeout: 30_000 });
    expect(await frame.locator('.page-frame[data-state="failed"]').count()).toBe(0);
    await frame.getByRole('heading', { name: 'Hyresavtal Storgatan 1' }).waitFor({ timeout: UI_TIMEOUT_MS });
    // No cookie reached the frame (plain HTTP, another site): the page holds the session itself,
    // never in a URL: every page image came by a request that names no session.
    expect(await context.cookies(link)).toEqual([]);
    await screenshot(page, 'signing-frame-code-document');
    // The document's download works in the frame too (fetched with the page's session).
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      frame.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    const saved = await download.path();
    expect(fs.readFileSync(saved).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(download.suggestedFilename()).toBe('Hyresavtal Storgatan 1.pdf');

    // Where this browser refuses the framed page its storage (this Chromium does, as with
    // third-party cookies blocked), the page says so and offers a window of its own.
    const isRefused = await page
      .frames()
      .find((each) => each.url().startsWith(link))!
      .evaluate<boolean>(
        `(() => { try { sessionStorage.length; localStorage.length; return false; } catch { return true; } })()`,
      );
    expect(await frame.getByRole('region', { name: 'This page inside another site' }).count()).toBe(isRefused ? 1 : 0);

    await signOnPage(frame);
    await expect
      .poll(() => page.locator('#events li[data-event="signed"]').count(), { timeout: 20_000, interval: 100 })
      .toBe(1);
    await context.close();
  }, 180_000);

  it("keeps the document from a stranger with the link: the frame's session is no use without the code, nor for another link", async () => {
    const contract = await codeContract('Gert Gäst', 'gert@example.test');
    const other = await codeContract('Hugo Hem', 'hugo@example.test');
    const link = contract.parties[0]!.contract_url;
    const context = await browser.newContext();
    const page = await context.newPage();
    const sessions: string[] = [];
    page.on('response', (response) => {
      const value = response.headers()['x-signing-session'];
      if (value) sessions.push(value);
    });
    const frame = await openEmbedded(page, link);
    await enterCode(frame, 'gert@example.test');
    await frame.locator('.page-frame[data-state="loaded"]').first().waitFor({ timeout: 30_000 });
    expect(sessions.length).toBeGreaterThan(0);
    const session = sessions.at(-1)!;
    // The link alone: no document.
    expect((await fetch(`${link}/document.pdf`)).status).toBe(403);
    // A made-up or another link's session: no document either.
    const forged = `${session.slice(0, 26)}${'A'.repeat(session.length - 26)}`;
    expect((await fetch(`${link}/document.pdf`, { headers: { 'x-signing-session': forged } })).status).toBe(403);
    const otherLink = other.parties[0]!.contract_url;
    expect((await fetch(`${otherLink}/document.pdf`, { headers: { 'x-signing-session': session } })).status).toBe(403);
    // With this link's session, as the page sends it: the document (the header is the credential, as the cookie is).
    expect((await fetch(`${link}/document.pdf`, { headers: { 'x-signing-session': session } })).status).toBe(200);
    // A browser on the appliance itself never gets the session readable by script: HttpOnly cookie only.
    const own = await browser.newContext();
    const ownPage = await own.newPage();
    const readable: string[] = [];
    ownPage.on('response', (response) => {
      if (response.headers()['x-signing-session']) readable.push(response.url());
    });
    await ownPage.goto(other.parties[0]!.contract_url);
    const before = mailsTo(env.smtp, 'hugo@example.test').length;
    await ownPage.getByRole('button', { name: 'Send me a code' }).click();
    await expect.poll(() => mailsTo(env.smtp, 'hugo@example.test').length, { timeout: 15_000 }).toBeGreaterThan(before);
    const code = /Enter the code (\d{6})/.exec(mailsTo(env.smtp, 'hugo@example.test').at(-1)?.mail.text ?? '')?.[1];
    await ownPage.getByLabel('Code').fill(code!);
    await ownPage.getByRole('button', { name: 'Open the document' }).click();
    await ownPage.locator('.page-frame[data-state="loaded"]').first().waitFor({ timeout: 30_000 });
    expect(readable).toEqual([]);
    const cookies = await own.cookies(other.parties[0]!.contract_url);
    expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite])).toEqual([
      ['sd_party', true, 'Strict'],
    ]);
    await own.close();
    await context.close();
  }, 180_000);

  it('says so and offers a window of its own where the browser refuses the framed page any storage', async () => {
    const contract = await codeContract('Ida Inne', 'ida@example.test');
    const link = contract.parties[0]!.contract_url;
    const context = await browser.newContext();
    // The browser's refusal as pages meet it (strict privacy settings): storage access throws.
    await context.addInitScript(`if (window.self !== window.top) {
      for (const name of ['localStorage', 'sessionStorage'])
        Object.defineProperty(window, name, { get() { throw new DOMException('Access is denied for this document.', 'SecurityError'); } });
    }`);
    const page = await context.newPage();
    const frame = await openEmbedded(page, link);
    const note = frame.getByRole('region', { name: 'This page inside another site' });
    await note.waitFor({ timeout: 20_000 });
    expect(await note.textContent()).toContain('if the page reloads you need a new code');
    const open = note.getByRole('link', { name: 'Continue in a new window' });
    expect(await open.getAttribute('target')).toBe('_blank');
    // The code still works for as long as the frame stays open.
    await enterCode(frame, 'ida@example.test');
    await frame.locator('.page-frame[data-state="loaded"]').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'signing-frame-storage-blocked');
    // The new window is the same link at the top level, where the code and storage work as usual.
    const [popup] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await popup.waitForLoadState();
    expect(popup.url().startsWith(link)).toBe(true);
    await popup.getByRole('button', { name: 'Send me a code' }).waitFor({ timeout: 20_000 });
    expect(await popup.getByRole('region', { name: 'This page inside another site' }).count()).toBe(0);
    await context.close();
  }, 180_000);
});
