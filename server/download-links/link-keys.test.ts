import { describe, expect, it } from 'vitest';
import { keysForFiles, parseLinkKeys } from './link-keys.ts';

const KEY = 'q83vEjRWeJA=:AAECAwQFBgcICQoLDA0ODw==';

describe('parseLinkKeys', () => {
  it('accepts exactly one well-formed key per file', () => {
    expect(parseLinkKeys(JSON.stringify({ 1: KEY, 2: KEY }), [1, 2])).toEqual({ ok: true, keys: { 1: KEY, 2: KEY } });
  });

  it('refuses missing, extra and malformed keys and non-objects', () => {
    expect(parseLinkKeys(JSON.stringify({ 1: KEY }), [1, 2])).toEqual({ ok: false, message: 'Missing key for file 2' });
    expect(parseLinkKeys(JSON.stringify({ 1: KEY, 3: KEY }), [1])).toMatchObject({ ok: false });
    for (const value of ['nokey', ':abc', 'abc:', 'a:b:c', 'a b:c', 42, null]) {
      expect(parseLinkKeys(JSON.stringify({ 1: value }), [1]), String(value)).toMatchObject({ ok: false });
    }
    for (const json of ['not json', '[]', 'null', '"x"']) expect(parseLinkKeys(json, [1])).toMatchObject({ ok: false });
  });
});

describe('keysForFiles', () => {
  it('returns the stored keys of the given files only', () => {
    expect(keysForFiles(JSON.stringify({ 1: KEY, 2: 'x:y' }), [2, 5])).toEqual({ 2: 'x:y' });
  });
});
