import { describe, expect, it } from 'vitest';
import { keysForFiles, linkKdfParams, parseLinkKeys } from './link-keys.ts';

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

describe('linkKdfParams', () => {
  const wrapped = (block: Buffer) => Buffer.concat([block, Buffer.alloc(12 + 48, 9)]).toString('base64');
  const stored = (block: Buffer) => JSON.stringify({ 7: `${wrapped(block)}:${Buffer.alloc(60).toString('base64')}` });

  it('reads a scheme-2 block (26 bytes) and a scheme-1 block (21 bytes) by their first byte', () => {
    const scheme2 = Buffer.concat([Buffer.from([2, 0, 1, 0, 0, 0, 0, 0, 3, 1]), Buffer.alloc(16, 5)]);
    const scheme1 = Buffer.concat([Buffer.from([1, 0, 2, 0x49, 0xf0]), Buffer.alloc(16, 6)]);
    expect(linkKdfParams(stored(scheme2))).toBe(scheme2.toString('base64'));
    expect(linkKdfParams(stored(scheme1))).toBe(scheme1.toString('base64'));
  });

  it('answers null for a block of an unknown scheme or keys too short to hold one', () => {
    expect(linkKdfParams(stored(Buffer.concat([Buffer.from([9]), Buffer.alloc(25)])))).toBeNull();
    expect(linkKdfParams(JSON.stringify({ 7: 'AgAB:AAAA' }))).toBeNull();
  });
});
