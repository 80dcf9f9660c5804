import { describe, expect, it } from 'vitest';
import { keysForFiles, linkKdfParams, parseLinkKeys } from './link-keys.ts';

// A scheme-2 (argon2id) block, then the IV and the wrapped key, as the admin's browser sends them.
const SCHEME2_BLOCK = Buffer.concat([Buffer.from([2, 0, 1, 0, 0, 0, 0, 0, 3, 1]), Buffer.alloc(16, 5)]);
const SCHEME1_BLOCK = Buffer.concat([Buffer.from([1, 0, 2, 0x49, 0xf0]), Buffer.alloc(16, 6)]);
const keyWith = (block: Buffer) => `${Buffer.concat([block, Buffer.alloc(12 + 48, 9)]).toString('base64')}:${Buffer.alloc(60, 7).toString('base64')}`;
const KEY = keyWith(SCHEME2_BLOCK);

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

  it('refuses a key without a scheme-2 block: scheme 1 (PBKDF2) and a key too short to hold a block', () => {
    expect(parseLinkKeys(JSON.stringify({ 1: keyWith(SCHEME1_BLOCK) }), [1])).toMatchObject({ ok: false });
    expect(parseLinkKeys(JSON.stringify({ 1: 'q83vEjRWeJA=:AAECAwQFBgcICQoLDA0ODw==' }), [1])).toMatchObject({ ok: false });
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
