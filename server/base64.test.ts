import { describe, expect, it } from 'vitest';
import { checkCanonicalBase64, decodeStrictBase64, hasBase64Shape } from './base64.ts';

describe('checkCanonicalBase64', () => {
  it('decodes padded base64 of any length, the empty string included', () => {
    for (const bytes of [[], [1], [1, 2], [1, 2, 3], [255, 254, 253, 252]]) {
      const text = Buffer.from(bytes).toString('base64');
      const checked = checkCanonicalBase64(text);
      expect(checked.ok && [...checked.bytes]).toEqual(bytes);
    }
  });

  it('rejects what Buffer would quietly decode to other bytes: foreign characters, missing or extra padding, base64url', () => {
    for (const text of ['sa!t', 'AQ', 'AQ=', 'AQ===', 'AQID AQID', 'AQID\n', '-_-_', 'AQ==AQ==']) {
      expect(checkCanonicalBase64(text)).toEqual({ ok: false, problem: 'not-base64' });
    }
  });

  it('tells text with unused bits set (not canonical) from text that is not base64', () => {
    expect(checkCanonicalBase64('AR==')).toEqual({ ok: false, problem: 'not-canonical' });
    expect(checkCanonicalBase64('AQJ=')).toEqual({ ok: false, problem: 'not-canonical' });
  });
});

describe('decodeStrictBase64', () => {
  it('gives the bytes of canonical base64 and undefined for anything else, the empty string included', () => {
    expect([...decodeStrictBase64('AQID')!]).toEqual([1, 2, 3]);
    expect(decodeStrictBase64('')).toBeUndefined();
    expect(decodeStrictBase64('AR==')).toBeUndefined();
    expect(decodeStrictBase64('sa!t')).toBeUndefined();
  });
});

describe('hasBase64Shape', () => {
  it('checks the alphabet and at most two trailing =, not the length', () => {
    expect(hasBase64Shape('AQID')).toBe(true);
    expect(hasBase64Shape('AQ')).toBe(true);
    expect(hasBase64Shape('AQ==')).toBe(true);
    expect(hasBase64Shape('')).toBe(false);
    expect(hasBase64Shape('AQ===')).toBe(false);
    expect(hasBase64Shape('A=Q')).toBe(false);
    expect(hasBase64Shape('-_')).toBe(false);
  });
});
