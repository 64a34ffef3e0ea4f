import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the admin UI (dist/renderer) before the browser tests need it.
    globalSetup: ['test/global-setup.ts'],
    // Native addons (better-sqlite3, sodium-native) are happiest in child processes.
    pool: 'forks',
    // Two files at a time even on a 2-core machine (vitest's default there is one): most of a
    // test's time is spent waiting on servers, browsers and timers, and the suite runs twice
    // (SQLite, then PostgreSQL) within CI's time.
    maxWorkers: 2,
    testTimeout: 30_000,
    // expect.poll waits for the real condition; its default (1 s) fails on a loaded machine.
    expect: { poll: { timeout: 20_000, interval: 25 } },
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
