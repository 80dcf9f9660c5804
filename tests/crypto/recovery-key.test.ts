// The recovery key of an account without a password: 20 random bytes shown as eight groups of four
// Crockford base32 characters and read back leniently (case, dashes, spaces, O/0, I/L/1), and the
// private key under it, bound to the lower-cased username and to the account's key pair. The copy
// is checked against node:crypto (hkdfSync + aes-256-gcm) as an independent implementation.
import { createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  RECOVERY_WRAP_AAD_LABEL,
  RECOVERY_WRAP_INFO,
  exportPublicKeySpki,
  formatRecoveryKey,
  generateKeyPair,
  generateRecoveryKey,
  parseRecoveryKey,
  unwrapRecoveryPrivateKey,
  wrapPrivateKeyForRecovery,
} from '../../crypto/index.ts';
import { expectCryptoError } from './helpers.ts';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('the recovery key as text', () => {
  it('is 32 Crockford base32 characters, most significant bits first, in eight groups of four', () => {
    expect(formatRecoveryKey(new Uint8Array(20))).toBe('0000-0000-0000-0000-0000-0000-0000-0000');
    expect(formatRecoveryKey(new Uint8Array(20).fill(0xff))).toBe('ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    // 0x00 0x44 0x32 0x14 0xc7 = 00000 00001 00010 00011 00100 00101 00110 00111: "01234567".
    const counting = bytes(0x00, 0x44, 0x32, 0x14, 0xc7, 0x42, 0x54, 0xb6, 0x35, 0xcf, 0x84, 0x65, 0x3a, 0x56, 0xd7, 0xc6, 0x75, 0xbe, 0x77, 0xdf);
    expect(formatRecoveryKey(counting)).toBe('0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ');
    expect(parseRecoveryKey('0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ')).toEqual(counting);
  });

  it('round-trips random keys', () => {
    for (let i = 0; i < 50; i++) {
      const key = generateRecoveryKey();
      expect(key).toHaveLength(20);
      const text = formatRecoveryKey(key);
      expect(text).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){7}[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(parseRecoveryKey(text)).toEqual(key);
    }
  });

  it('reads what a person types: any case, with or without dashes and spaces, O as 0 and I or L as 1', () => {
    const key = parseRecoveryKey('0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ');
    expect(parseRecoveryKey('0123456789abcdefghjkmnpqrstvwxyz')).toEqual(key);
    expect(parseRecoveryKey(' 0123 4567 89ab cdef\tghjk mnpq rstv wxyz\n')).toEqual(key);
    expect(parseRecoveryKey('O123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ')).toEqual(key);
    expect(parseRecoveryKey('o123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ')).toEqual(key);
    for (const one of ['I', 'i', 'L', 'l']) expect(parseRecoveryKey(`0${one}23-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ`)).toEqual(key);
  });

  it('refuses other lengths and characters as MALFORMED', () => {
    const text = '0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ';
    for (const typed of [text.slice(0, -1), `${text}0`, '', '----', text.replace('W', 'U'), text.replace('W', '*'), text.replace('W', 'Ü'), text.replace('W', 'ẞ'), text.replace('-', '_')]) {
      expect(() => parseRecoveryKey(typed), typed).toThrow(expect.objectContaining({ code: 'MALFORMED' }));
    }
    expect(() => formatRecoveryKey(new Uint8Array(19))).toThrow(expect.objectContaining({ code: 'MALFORMED' }));
  });
});

describe('the private key under the recovery key', () => {
  it('is AES-256-GCM under HKDF of the 20 bytes, bound to the lower-cased username (node:crypto reads it)', async () => {
    const { privateKey } = await generateKeyPair();
    const recoveryKey = generateRecoveryKey();
    const copy = Buffer.from(await wrapPrivateKeyForRecovery(privateKey, recoveryKey, 'Alice'), 'base64');
    const key = Buffer.from(hkdfSync('sha256', recoveryKey, Buffer.alloc(0), RECOVERY_WRAP_INFO, 32));
    const decipher = createDecipheriv('aes-256-gcm', key, copy.subarray(0, 12));
    decipher.setAAD(Buffer.concat([Buffer.from(RECOVERY_WRAP_AAD_LABEL), Buffer.from([0]), Buffer.from('alice')]));
    decipher.setAuthTag(copy.subarray(copy.length - 16));
    const pkcs8 = Buffer.concat([decipher.update(copy.subarray(12, copy.length - 16)), decipher.final()]);
    expect(pkcs8).toEqual(Buffer.from(await crypto.subtle.exportKey('pkcs8', privateKey)));
  });

  it('opens with the typed key and the same name in any case, and nothing else', async () => {
    const pair = await generateKeyPair();
    const spki = await exportPublicKeySpki(pair.publicKey);
    const recoveryKey = generateRecoveryKey();
    const copy = await wrapPrivateKeyForRecovery(pair.privateKey, recoveryKey, 'alice');
    const typed = parseRecoveryKey(formatRecoveryKey(recoveryKey).toLowerCase().replace(/-/g, ' '));
    const opened = await unwrapRecoveryPrivateKey(copy, typed, 'Alice', spki);
    expect(opened.extractable).toBe(false);
    expect((await unwrapRecoveryPrivateKey(copy, typed, 'alice', spki, true)).extractable).toBe(true);

    await expectCryptoError(unwrapRecoveryPrivateKey(copy, generateRecoveryKey(), 'alice', spki), 'WRONG_KEY');
    await expectCryptoError(unwrapRecoveryPrivateKey(copy, typed, 'bob', spki), 'WRONG_KEY');
    const altered = Buffer.from(copy, 'base64');
    altered[30]! ^= 1;
    await expectCryptoError(unwrapRecoveryPrivateKey(altered.toString('base64'), typed, 'alice', spki), 'WRONG_KEY');
    // A valid copy of another key pair (one a server could have made and knows) is refused.
    const other = await generateKeyPair();
    const otherCopy = await wrapPrivateKeyForRecovery(other.privateKey, typed, 'alice');
    await expectCryptoError(unwrapRecoveryPrivateKey(otherCopy, typed, 'alice', spki), 'WRONG_KEY');
    await expect(unwrapRecoveryPrivateKey(otherCopy, typed, 'alice', await exportPublicKeySpki(other.publicKey))).resolves.toBeDefined();
  });

  it('refuses data of the wrong shape as MALFORMED', async () => {
    const pair = await generateKeyPair();
    const spki = await exportPublicKeySpki(pair.publicKey);
    const recoveryKey = generateRecoveryKey();
    const copy = await wrapPrivateKeyForRecovery(pair.privateKey, recoveryKey, 'alice');
    await expectCryptoError(unwrapRecoveryPrivateKey(randomBytes(28).toString('base64'), recoveryKey, 'alice', spki), 'MALFORMED');
    await expectCryptoError(unwrapRecoveryPrivateKey('not base64!', recoveryKey, 'alice', spki), 'MALFORMED');
    await expectCryptoError(unwrapRecoveryPrivateKey(copy, recoveryKey.subarray(0, 16), 'alice', spki), 'MALFORMED');
    await expectCryptoError(unwrapRecoveryPrivateKey(copy, recoveryKey, '', spki), 'MALFORMED');
    await expectCryptoError(unwrapRecoveryPrivateKey(copy, recoveryKey, 'alice', 'not base64!'), 'MALFORMED');
    await expectCryptoError(wrapPrivateKeyForRecovery(pair.privateKey, recoveryKey, 'al\0ice'), 'MALFORMED');
  });
});
