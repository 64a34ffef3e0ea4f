import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The party signing page: its own small bundle, served under /sign/assets/ by server/signing. */
export default defineConfig({
  root: 'renderer/signing',
  base: '/sign/assets/',
  plugins: [react()],
  build: {
    outDir: '../../dist/signing',
    emptyOutDir: true,
    assetsDir: '.',
    sourcemap: false,
    // pdf.js is most of the bundle and is needed on first paint anyway.
    chunkSizeWarningLimit: 1_000,
  },
});
