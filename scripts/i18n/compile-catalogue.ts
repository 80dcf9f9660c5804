// Catalogues are compiled to ICU message ASTs when the app is built, so the browser ships
// FormatJS without its message parser (docs/architecture.md, "Languages").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

export type CompiledCatalogue = Record<string, MessageFormatElement[]>;

export function readCatalogue(directory: string, code: string): Record<string, string> {
  return JSON.parse(readFileSync(join(directory, `${code}.json`), 'utf8')) as Record<string, string>;
}

export function compileCatalogue(messages: Record<string, string>): CompiledCatalogue {
  const compiled: CompiledCatalogue = {};
  for (const [id, message] of Object.entries(messages)) compiled[id] = parse(message);
  return compiled;
}

const LOADERS_ID = 'virtual:catalogues';
const CATALOGUE_PREFIX = 'virtual:catalogue/';

/**
 * `virtual:catalogues` exports a loader per file of locales/ (`{ de: () => import(...) }`, one
 * chunk per language); `virtual:catalogue/<code>` is that language's compiled catalogue.
 */
export function compiledCataloguesPlugin(directory: string): Plugin {
  return {
    name: 'sealdrop-compiled-catalogues',
    resolveId(id) {
      if (id === LOADERS_ID || id.startsWith(CATALOGUE_PREFIX)) return `\0${id}`;
      return null;
    },
    load(id) {
      if (id === `\0${LOADERS_ID}`) {
        const codes = readdirSync(directory)
          .filter((file) => file.endsWith('.json'))
          .map((file) => file.slice(0, -'.json'.length));
        const entries = codes.map((code) => `${JSON.stringify(code)}: () => import(${JSON.stringify(CATALOGUE_PREFIX + code)})`);
        return `export const catalogueLoaders = {${entries.join(',')}};`;
      }
      if (id.startsWith(`\0${CATALOGUE_PREFIX}`)) {
        const code = id.slice(`\0${CATALOGUE_PREFIX}`.length);
        this.addWatchFile(join(directory, `${code}.json`));
        return `export default ${JSON.stringify(compileCatalogue(readCatalogue(directory, code)))};`;
      }
      return null;
    },
  };
}
