import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { startSigningEnv, type SigningEnv } from './signing';

export type SigningBrowser = { env: SigningEnv; browser: Browser };

/**
 * A signing environment (the server, its SMTP and SMS sinks) and a Chromium for one describe
 * block: started before its tests and handed to `onStart`, both closed after them.
 */
export function startSigningBrowser(onStart: (started: SigningBrowser) => void): void {
  let started: SigningBrowser | undefined;
  beforeAll(async () => {
    const env = await startSigningEnv();
    try {
      started = { env, browser: await launchBrowser() };
    } catch (error) {
      await env.close();
      throw error;
    }
    onStart(started);
  });
  afterAll(async () => {
    await started?.browser.close();
    await started?.env.close();
  }, 180_000);
}
