// `virtual:catalogues` and `virtual:catalogue/en` outside Vite: the page's modules that tsx runs
// (the benches import the upload transport) and Playwright loads (specs read texts) find the
// catalogues through tsconfig.json's "paths", compiled here as the build plugin compiles them.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileCatalogue, readCatalogue, type CompiledCatalogue } from './compile-catalogue.ts';

const DIRECTORY = fileURLToPath(new URL('../../locales/', import.meta.url));

export const catalogueLoaders: Record<string, () => Promise<{ default: CompiledCatalogue }>> = Object.fromEntries(
  readdirSync(DIRECTORY)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .map((code) => [code, async () => ({ default: compileCatalogue(readCatalogue(DIRECTORY, code)) })]),
);

export const englishCatalogue: CompiledCatalogue = compileCatalogue(readCatalogue(DIRECTORY, 'en'));
