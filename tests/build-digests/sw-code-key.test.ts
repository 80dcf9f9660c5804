// The service worker's code key (scripts/build-digests/sw-code-key.ts): written over the
// placeholder in workers/sw.ts, different for different code, the same for the same code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SW_CODE_KEY_PLACEHOLDER, swCodeKeyPlugin } from '../../scripts/build-digests/sw-code-key.ts';

type Bundle = Record<string, { type: 'chunk'; code: string } | { type: 'asset'; source: string }>;

function run(bundle: Bundle): Bundle {
  const plugin = swCodeKeyPlugin();
  const context = {
    error(message: string): never {
      throw new Error(message);
    },
  };
  (plugin.generateBundle as (this: typeof context, options: unknown, bundle: Bundle) => void).call(context, {}, bundle);
  return bundle;
}

const code = (body: string) => `const SW_CODE_KEY = '${SW_CODE_KEY_PLACEHOLDER}';\n${body}`;
const keyOf = (bundle: Bundle) => /const SW_CODE_KEY = '([^']*)'/.exec((bundle['sw.mjs'] as { code: string }).code)![1];

describe('swCodeKeyPlugin', () => {
  it('workers/sw.ts carries the placeholder the plugin replaces', () => {
    expect(readFileSync(new URL('../../workers/sw.ts', import.meta.url), 'utf8')).toContain(`'${SW_CODE_KEY_PLACEHOLDER}'`);
  });

  it('writes a key of the same length, the same for the same code and different for other code', () => {
    const first = keyOf(run({ 'sw.mjs': { type: 'chunk', code: code('download()') } }));
    const again = keyOf(run({ 'sw.mjs': { type: 'chunk', code: code('download()') } }));
    const other = keyOf(run({ 'sw.mjs': { type: 'chunk', code: code('download(); fixed()') } }));
    expect(first).toMatch(/^[0-9a-f]+$/);
    expect(first).toHaveLength(SW_CODE_KEY_PLACEHOLDER.length);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it('fails the build when the placeholder is gone', () => {
    expect(() => run({ 'sw.mjs': { type: 'chunk', code: 'no key here' } })).toThrow(/does not contain/);
  });
});
