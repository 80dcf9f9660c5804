// Builds the crypto harness page with the production worker bundling (the pool's
// `new Worker(new URL('./crypto.worker.ts', import.meta.url))` goes through Vite as in the app).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export const HARNESS_OUT_DIR = fileURLToPath(new URL('../../.tmp/crypto-harness', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  publicDir: false,
  worker: { format: 'es' },
  build: { outDir: HARNESS_OUT_DIR, emptyOutDir: true, target: 'es2022', sourcemap: false, reportCompressedSize: false },
});
