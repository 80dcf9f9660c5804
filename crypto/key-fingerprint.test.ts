import { describe, expect, it } from 'vitest';
import { keyFingerprint } from './key-fingerprint.ts';

describe('keyFingerprint', () => {
  it('is the first 20 bytes of SHA-256 in ten groups of four upper-case hex digits', async () => {
    // SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c b410ff61 f20015ad
    const fingerprint = await keyFingerprint(new TextEncoder().encode('abc'));
    expect(fingerprint).toBe('BA78 16BF 8F01 CFEA 4141 40DE 5DAE 2223 B003 61A3');
  });

  it('differs when one byte of the key differs', async () => {
    const a = await keyFingerprint(new Uint8Array([1, 2, 3]));
    const b = await keyFingerprint(new Uint8Array([1, 2, 4]));
    expect(a).not.toBe(b);
  });
});
