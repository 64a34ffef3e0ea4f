import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the admin UI (dist/renderer) before the browser tests need it.
    globalSetup: ['test/global-setup.ts'],
    // Native addons (better-sqlite3, sodium-native) are happiest in child processes.
    pool: 'forks',
    testTimeout: 30_000,
    // expect.poll waits for the real condition; its default (1 s) fails on a loaded machine.
    expect: { poll: { timeout: 20_000, interval: 25 } },
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
