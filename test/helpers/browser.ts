import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

export type WatchedPage = {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
};

/** A fresh browser context (its own cookies and storage) whose console errors and CSP violations are kept. */
export async function openPage(
  browser: Browser,
  options: { zoom200?: boolean; locale?: string } = {},
): Promise<WatchedPage> {
  // 200 % browser zoom of a 1280x800 window: a 640x400 CSS viewport drawn at twice the pixels.
  const context = await browser.newContext({
    viewport: options.zoom200 ? { width: 640, height: 400 } : { width: 1280, height: 800 },
    deviceScaleFactor: options.zoom200 ? 2 : 1,
    locale: options.locale ?? 'en-GB',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // A 401 or 403 the UI handles itself (session ended, forbidden) is logged by Chromium as a failed load.
    if (message.type() === 'error' && !/status of (401|403|404|409|400|429)/.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { page, context, problems };
}

/**
 * Whole-page screenshot into test-results/screenshots/<name>.png. The window is made as tall
 * as the page for it (then put back), so that the sticky sidebar is drawn where a person sees it.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const height = await page.evaluate<number>('document.documentElement.scrollHeight');
  if (height > size.height) await page.setViewportSize({ width: size.width, height });
  await page.screenshot({ path: file });
  if (height > size.height) await page.setViewportSize(size);
  return file;
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

export type AxeViolation = { id: string; impact: string | null; help: string; targets: string[] };

/**
 * axe-core's WCAG 2.1 A and AA rules on the page as it is now. Evaluated through the DevTools
 * protocol, so the page's strict CSP stays as it is.
 */
export async function auditAccessibility(page: Page): Promise<AxeViolation[]> {
  axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate<AxeViolation[]>(`
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
      .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))
  `);
}
