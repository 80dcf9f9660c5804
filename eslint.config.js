// The layering of the code base (docs/architecture.md "Layers"), checked on every `npm test`.
// Each rule below is one line of that page; an import that crosses a layer is an error, not a
// warning. Exceptions are listed in `except` with the reason beside them, nowhere else.
import { readdirSync } from 'node:fs';
import formatjs from 'eslint-plugin-formatjs';
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

/** Every folder of the project, for the zones that allow none of it. */
const PROJECT = ['./src', './workers', './crypto', './contract', './locales', './server', './cli', './e2e', './tests', './bench', './scripts'];
const except = (from, allowed) => from.filter((folder) => !allowed.includes(folder));

const zones = [
  {
    target: './server',
    from: except(PROJECT, ['./server', './contract', './locales']),
    message: 'The server imports only contract/ and locales/; the node:crypto implementation in server/crypto stays separate from crypto/ (docs/architecture.md "Layers").',
  },
  {
    // The command-line clients (npm run upload / fetch) speak HTTP to a server like a browser does;
    // they share the contract, the node implementation of the format and recover's decrypt-to-disk
    // with the server folder, and nothing else of it.
    target: './cli',
    from: except(PROJECT, ['./cli', './contract', './server']),
    message: 'cli/ imports contract/ and, of server/, only its node crypto, recovery and prompt modules (docs/architecture.md "Layers").',
  },
  {
    target: './cli',
    from: './server',
    except: ['./crypto/index.ts', './recovery/index.ts', './cli-password.ts', './cli-errors.ts', './cli-args.ts'],
    message: 'cli/ uses server/ only through server/crypto/index.ts, server/recovery/index.ts and the command-line helpers (cli-password, cli-errors, cli-args) (docs/architecture.md "Layers").',
  },
  {
    // The page, the service worker and the server all read the catalogues and the language list.
    target: './locales',
    from: except(PROJECT, ['./locales']),
    message: 'locales/ (the catalogues, the language list, defineMessages) imports nothing of the project (docs/i18n.md).',
  },
  {
    target: './contract',
    from: except(PROJECT, ['./contract']),
    message: 'contract/ imports only zod: both the server and the browser import it.',
  },
  {
    target: './crypto',
    from: except(PROJECT, ['./crypto']),
    message: 'crypto/ is the bottom layer: pure functions over WebCrypto and hash-wasm, nothing of the project.',
  },
  {
    // The crypto core has one door. Within crypto/ its modules import each other.
    target: except(PROJECT, ['./crypto']),
    from: './crypto',
    except: ['./index.ts'],
    message: 'Import crypto/ through crypto/index.ts, its one entry point.',
  },
  {
    target: './workers',
    // Workers sit below every page layer, src/lib included: what both need lives in workers/ (the
    // page reaches it through workers/index.ts) or in contract/ (download-failure.ts). Workers send
    // a failure's code and facts and the page words it, so no user text is reachable from here.
    from: ['./src', './server', './e2e', './tests', './bench', './scripts'],
    message: 'Workers import only crypto/ and contract/ (docs/architecture.md "Layers"); user texts stay in src/lib/userTexts.ts.',
  },
  {
    // The page's one door into the workers: the pool, its handles, the download protocol and errors.
    target: './src',
    from: './workers',
    except: ['./index.ts'],
    message: 'Page code uses workers/ through workers/index.ts only (docs/architecture.md "Layers").',
  },
  {
    target: './src/lib',
    from: ['./src/app', './src/features', './src/routes', './src/api', './workers', './server', './e2e', './tests', './bench', './scripts'],
    message: 'src/lib is pure code: it imports only crypto/ and contract/.',
  },
  {
    target: './src/api',
    from: ['./src/app', './src/features', './src/routes', './workers', './crypto', './server'],
    message: 'The HTTP client sits below the features: it knows the contract, not the screens.',
  },
  {
    target: './src/app',
    from: ['./src/routes', './crypto'],
    message: 'The app shell imports features (index.ts), api, lib and workers/index.ts: never routes (the route tree is src/routes/router.tsx) or crypto/.',
  },
  {
    target: './src/routes',
    from: ['./crypto', './workers'],
    message: 'Routes import features, app, api and lib: crypto and the worker pool are reached through the features.',
  },
  {
    target: './src/app',
    from: './src/features',
    except: FEATURES.flatMap(featurePublicParts),
    message: "The app shell uses a feature through its index.ts only.",
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
      'import/no-duplicates': 'error',
      'no-control-regex': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['crypto/**', 'src/lib/**', 'workers/**', 'contract/**'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    rules: noUiPackages,
  },
  {
    // The crypto core runs in the page's workers, the service worker and node alike: WebCrypto,
    // hash-wasm and its own modules, no other package.
    files: ['crypto/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!hash-wasm$|\\.\\.?/)', message: 'crypto/ imports hash-wasm and its own modules only (docs/architecture.md "Layers").' }] },
      ],
    },
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
    // Every text a screen shows comes from the catalogues (locales/, docs/i18n.md): a literal in JSX,
    // or in a prop a person reads or hears, is an error. Messages carry explicit ids by screen.
    files: ['src/**/*.tsx'],
    ignores: ['**/*.test.tsx', '**/testing/**'],
    plugins: { formatjs },
    rules: {
      'formatjs/no-literal-string-in-jsx': [
        'error',
        { props: { include: [['*', '{label,title,subtitle,helperText,placeholder,alt,tooltip,failureMessage,successMessage,copiedMessage,heading,description,emptyText,primary,secondary}']] } },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'workers/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { formatjs },
    rules: {
      'formatjs/enforce-id': ['error', { idInterpolationPattern: '[sha512:contenthash:base64:6]', idWhitelist: ['^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$'] }],
      'formatjs/enforce-default-message': ['error', 'literal'],
      'formatjs/enforce-placeholders': 'error',
      'formatjs/no-multiple-whitespaces': 'error',
      'formatjs/no-offset': 'error',
    },
  },
  {
    // Migrations are written against the schema of their day, not today's: Kysely's documented
    // type for them is Kysely<any>.
    files: ['server/db/migrate.ts', 'server/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
