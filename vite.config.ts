/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { buildDigestsPlugin } from './scripts/build-digests/build-digests.ts';
import { swCodeKeyPlugin } from './scripts/build-digests/sw-code-key.ts';
import { compiledCataloguesPlugin } from './scripts/i18n/compile-catalogue.ts';
import packageJson from './package.json' with { type: 'json' };

/** The server and storage suites, which load their modules once per worker (below). */
const SHARED_MODULE_TESTS = ['tests/server/**/*.test.ts', 'tests/storage/**/*.test.ts'];
/** Those of them that replace a module with vi.mock: in a shared module cache it would leak or come too late. */
const MOCKING_SERVER_TESTS = ['tests/server/login-timing.test.ts'];
/** Every other test file: the unit, component and command tests. */
const UNIT_TESTS = [
  'contract/**/*.test.ts',
  'crypto/**/*.test.ts',
  'src/**/*.test.{ts,tsx}',
  'workers/**/*.test.ts',
  'server/**/*.test.ts',
  'cli/**/*.test.ts',
  'tests/**/*.test.{ts,tsx}',
];
/**
 * Those of them that need modules or globals of their own: vi.mock replaces a module, and a few
 * set a global (a fake IndexedDB, the clipboard) that they do not put back.
 */
const ISOLATED_UNIT_TESTS = [
  'src/features/passkeys/PasskeySection.test.tsx',
  'src/i18n/languageTimeout.test.ts',
  'src/features/upload/resume/uploadJournal.test.ts',
  'src/features/upload/workerFailureRetry.test.ts',
  'src/features/dashboard/DashboardPage.test.tsx',
];

// The app, the service worker (workers/sw.ts, Workbox precache via injectManifest) and the
// Vitest settings live here. The API runs on the same origin in production (npm start);
// in `npm run dev` Vite proxies /api to the server on 8080.
export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    compiledCataloguesPlugin(fileURLToPath(new URL('./locales', import.meta.url))),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'autoUpdate',
      manifest: {
        id: '/',
        name: 'Sealdrop',
        short_name: 'Sealdrop',
        description: 'End-to-end encrypted file exchange: files are encrypted in your browser before they are uploaded.',
        theme_color: '#1e3a5f',
        background_color: '#f5f7fa',
        display: 'standalone',
        scope: '/',
        start_url: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          // The icon inside the central 80 % safe zone on the theme colour, so no launcher crops it.
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        screenshots: [
          { src: '/screenshots/upload-wide.png', sizes: '1280x720', type: 'image/png', form_factor: 'wide', label: 'Uploading a folder, encrypted in the browser' },
          { src: '/screenshots/upload-narrow.png', sizes: '375x812', type: 'image/png', form_factor: 'narrow', label: 'The upload page on a phone' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,wasm}'],
        // Store screenshots for the install dialog, not needed offline.
        globIgnores: ['screenshots/**'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        buildPlugins: { vite: [swCodeKeyPlugin()] },
      },
      devOptions: { enabled: false },
    }),
    // Last: lists every file of dist/, sw.js included (docs/security.md, "The code the server serves").
    buildDigestsPlugin(packageJson.version),
  ],
  // The catalogues arrive compiled (above), so the browser needs FormatJS's formatter only.
  resolve: command === 'build' ? { alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }] } : {},
  worker: { format: 'es' },
  build: { outDir: 'dist', sourcemap: true, target: 'es2022' },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  test: {
    environment: 'node',
    setupFiles: ['src/app/testing/domMatchers.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default is one file at a time on two cores (cores - 1), but most server tests wait
    // on sockets, child processes and timers, not the CPU (docs/operations.md, "Test suite").
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'units',
          include: UNIT_TESTS,
          exclude: ['e2e/**', 'node_modules/**', 'dist/**', ...SHARED_MODULE_TESTS, ...ISOLATED_UNIT_TESTS],
          // Loaded once per worker instead of once per file (React, MUI, the app's modules): a fifth
          // of the stage's CPU (docs/operations.md, "Test suite"). Each file still gets its own
          // environment (jsdom or node); a file that replaces a module or leaves a global set
          // belongs in ISOLATED_UNIT_TESTS.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_UNIT_TESTS } },
      {
        extends: true,
        test: {
          name: 'server',
          include: SHARED_MODULE_TESTS,
          exclude: MOCKING_SERVER_TESTS,
          // Each of these files imports the whole server (5-6 s of module loading when every file
          // loads its own copy); they share one copy per worker instead, which none of them
          // changes: each starts servers of its own (docs/operations.md, "Test suite").
          isolate: false,
        },
      },
      { extends: true, test: { name: 'server-mocks', include: MOCKING_SERVER_TESTS } },
    ],
  },
}));
