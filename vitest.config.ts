import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the admin UI (dist/renderer) before the browser tests need it.
    globalSetup: ['test/global-setup.ts'],
    // Native addons (better-sqlite3, sodium-native) are happiest in child processes.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
