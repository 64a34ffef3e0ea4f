import path from 'node:path';
import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * The party signing page and the public verify page (a second entry): their own small bundles,
 * built into dist/signing and served under /sign/assets/ (cached for good: the names carry
 * content hashes). Every text asset is stored beside itself brotli- and gzip-compressed; the
 * server sends the one the browser accepts.
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer/signing'),
  base: '/sign/assets/',
  plugins: [
    react(),
    compression({
      algorithms: [defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), 'gzip'],
      include: /\.(js|css|html|svg|json|ttf)$/,
      threshold: 512,
      skipIfLargerOrEqual: true,
      logLevel: 'silent',
    }),
  ],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/signing'),
    emptyOutDir: true,
    assetsDir: '.',
    // The strict CSP has no 'unsafe-inline': keep every script and style in files of our own.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    // Phones on slow links: the first bundle must stay small (pdf.js is not in it at all).
    chunkSizeWarningLimit: 300,
    // The public verify page (/verify) is a second, small entry of this build.
    rollupOptions: {
      input: {
        index: path.resolve(import.meta.dirname, 'renderer/signing/index.html'),
        verify: path.resolve(import.meta.dirname, 'renderer/signing/verify.html'),
      },
    },
  },
});
