// The layering of the code base (docs/architecture.md "Layers"), checked on every `npm test`.
// Each rule below is one line of that page; an import that crosses a layer is an error, not a
// warning. Exceptions are listed in `except` with the reason beside them, nowhere else.
import { readdirSync } from 'node:fs';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

const FEATURES = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What a feature offers the others: its index.ts, and its testing/ doubles for their tests. */
const featurePublicParts = (feature) => [`./${feature}/index.ts`, `./${feature}/testing`];

const UI_AND_STATE_PACKAGES = ['react', 'react-dom', 'react-redux', '@reduxjs/toolkit', '@mui/*', '@emotion/*', 'notistack', '@tanstack/*'];

const noUiPackages = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: UI_AND_STATE_PACKAGES.flatMap((name) => [name, `${name}/*`]),
          message: 'Crypto, workers, shared helpers and the contract run without React, Redux or MUI (docs/architecture.md "Layers").',
        },
      ],
    },
  ],
};

const zones = [
  {
    target: './server',
    from: ['./src', './workers', './e2e', './tests', './bench'],
    message: 'The server imports nothing from the app, the workers or the tests; shared shapes live in contract/.',
  },
  {
    target: './contract',
    from: ['./src', './workers', './server', './e2e', './tests', './bench', './scripts'],
    message: 'contract/ imports only zod: both the server and the browser import it.',
  },
  {
    target: './workers',
    from: ['./src/app', './src/features', './src/routes', './src/api', './server'],
    message: 'Workers import only src/crypto, src/lib and contract/ (docs/architecture.md "Layers").',
  },
  {
    target: ['./src/crypto', './src/lib'],
    from: ['./src/app', './src/features', './src/routes', './src/api', './workers', './server'],
    message: 'src/crypto and src/lib are the bottom layer: pure functions and formats.',
  },
  {
    target: './src/api',
    from: ['./src/features', './src/routes', './workers', './server'],
    message: 'The HTTP client sits below the features: it knows the contract, not the screens.',
  },
  {
    target: './src/features',
    from: ['./src/routes'],
    message: 'Routes import features, never the reverse.',
  },
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`, ...FEATURES.filter((other) => other !== feature).flatMap(featurePublicParts)],
    message: `A feature uses another feature through its index.ts only (src/features/${feature} reaches into another feature's internals).`,
  })),
];

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'data/**', '.tmp/**', 'test-results/**', 'playwright-report/**', 'bench-results/**', 'dev-dist/**'],
  },
  {
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    plugins: { import: importPlugin, '@typescript-eslint': tseslint.plugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] } },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'import/no-restricted-paths': ['error', { zones }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-duplicates': 'error',
      'no-control-regex': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/crypto/**', 'src/lib/**', 'workers/**', 'contract/**'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    rules: noUiPackages,
  },
  {
    // A test drives its layer from outside: it may use node:crypto's reference implementation in
    // server/crypto, another feature's doubles, or the HTTP server. The layers bind shipped code.
    files: ['**/*.test.{ts,tsx}', '**/testing/**', 'tests/**', 'e2e/**', 'bench/**'],
    rules: {
      'import/no-restricted-paths': 'off',
      // Tests read JSON answers loosely (the contract's schemas check shapes where it matters) and
      // fuzzers build control characters on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    // Migrations are written against the schema of their day, not today's: Kysely's documented
    // type for them is Kysely<any>.
    files: ['server/db/migrate.ts', 'server/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
