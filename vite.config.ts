import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The admin UI: built into dist/renderer and served by the server at /admin. */
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer'),
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/renderer'),
    emptyOutDir: true,
    // The strict CSP has no 'unsafe-inline': keep every script and style in files of our own.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
  },
});
