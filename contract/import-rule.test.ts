// The contract is bundled into the browser, the service worker and the server alike, so it may
// import nothing but zod and its own modules (contract/README.md). This test reads the sources,
// so a stray import of server code, a node module or the app fails here before a bundle breaks.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const CONTRACT_DIR = new URL('./', import.meta.url);
const IMPORT_SOURCE = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function contractModules(): string[] {
  return readdirSync(CONTRACT_DIR).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
}

function importSources(source: string): string[] {
  return [...source.matchAll(IMPORT_SOURCE)].map((match) => match[1] ?? match[2]!);
}

function allowed(source: string): boolean {
  return source === 'zod' || /^\.\/[a-z-]+\.ts$/.test(source);
}

describe('the contract import rule', () => {
  it('finds the import sources it checks (static, re-export and dynamic)', () => {
    const sample = `import { z } from 'zod';\nimport type { A } from '../server/errors.ts';\nexport { b } from './common.ts';\nconst m = import('node:fs');`;
    expect(importSources(sample)).toEqual(['zod', '../server/errors.ts', './common.ts', 'node:fs']);
    expect(importSources(sample).filter((source) => !allowed(source))).toEqual(['../server/errors.ts', 'node:fs']);
  });

  it.each(contractModules())('%s imports only zod and other contract modules', (name) => {
    const sources = importSources(readFileSync(new URL(name, CONTRACT_DIR), 'utf8'));
    expect(sources.filter((source) => !allowed(source))).toEqual([]);
  });
});
