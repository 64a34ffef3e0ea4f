import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The party signing page and the public verify page: their own small bundles, built into dist/signing and served under /sign/assets/. */
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer/signing'),
  base: '/sign/assets/',
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/signing'),
    emptyOutDir: true,
    assetsDir: '.',
    // The strict CSP has no 'unsafe-inline': keep every script and style in files of our own.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    // pdf.js is most of the bundle and is needed on first paint anyway.
    chunkSizeWarningLimit: 1_000,
    // The public verify page (/verify) is a second, small entry of this build.
    rollupOptions: { input: { index: path.resolve(import.meta.dirname, 'renderer/signing/index.html'), verify: path.resolve(import.meta.dirname, 'renderer/signing/verify.html') } },
  },
});
