/**
 * Scheme 2 (argon2id + HKDF, docs/format.md "Login key derivation"): fixed vectors, pinned here and
 * in docs/format.md, that the browser's implementation (hash-wasm + WebCrypto, crypto/) and the
 * node one (@node-rs/argon2 + node:crypto, server/crypto/) must both produce; then random inputs
 * checked across the two; then the parameter bounds an attacker-supplied block must respect.
 */
import { describe, expect, it } from 'vitest';
import {
  ARGON2_DEFAULT_COST,
  decodeBase64,
  deriveAccountSecrets,
  newAccountKdfParams,
  parseAccountKdfParams,
  toHex,
} from '../../crypto/index.ts';
import * as node from '../../server/crypto/index.ts';
import { deterministicBytes, expectCryptoError } from './helpers.ts';

const VECTOR = {
  password: 'correct horse battery staple',
  // scheme 2, m = 65536 KiB, t = 3, p = 1, salt 00 01 .. 0f
  kdfParams: 'AgABAAAAAAADAQABAgMEBQYHCAkKCwwNDg8=',
  master: '0d1a3c6523c8f06e4e0af9c515aa5b5448cfebd6838f2d52c3d8b6ef8ddc3c2e',
  authSecretHex: '9d56a42ccf8c21ab4ea6489cc7eca8cb4ef4efb4f13c92baf24c6f4252a1e502',
  wrappingKeyHex: '2517df9c9fd3bd09f593f6a9e96c8e9fe13e3c7065f2596dee4331d0bb6b5000',
};

/** The wrapping key is non-extractable; compare it by what it seals (same IV, same plaintext). */
async function sealWith(key: CryptoKey): Promise<string> {
  const iv = new Uint8Array(12);
  return toHex(new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new Uint8Array(16))));
}

async function sealWithRaw(raw: Buffer): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new Uint8Array(raw), 'AES-GCM', false, ['encrypt']);
  return sealWith(key);
}

describe('login key derivation (scheme 2)', () => {
  it('the parameter block is laid out byte for byte as docs/format.md says', () => {
    const block = decodeBase64(VECTOR.kdfParams);
    expect(toHex(block)).toBe('02' + '00010000' + '00000003' + '01' + '000102030405060708090a0b0c0d0e0f');
    expect(parseAccountKdfParams(VECTOR.kdfParams)).toMatchObject({ memoryKiB: 65_536, passes: 3, lanes: 1 });
  });

  it('node reproduces the pinned vector', () => {
    const params = node.readArgon2Block(Buffer.from(VECTOR.kdfParams, 'base64'));
    expect(node.argon2Master(VECTOR.password, params).toString('hex')).toBe(VECTOR.master);
    const secrets = node.deriveAccountSecrets(VECTOR.password, VECTOR.kdfParams);
    expect(Buffer.from(secrets.authSecret, 'base64').toString('hex')).toBe(VECTOR.authSecretHex);
    expect(secrets.wrappingKey.toString('hex')).toBe(VECTOR.wrappingKeyHex);
  });

  it('the browser implementation reproduces the pinned vector', async () => {
    const secrets = await deriveAccountSecrets(VECTOR.password, VECTOR.kdfParams);
    expect(toHex(decodeBase64(secrets.authSecret))).toBe(VECTOR.authSecretHex);
    expect(await sealWith(secrets.wrappingKey)).toBe(await sealWithRaw(Buffer.from(VECTOR.wrappingKeyHex, 'hex')));
  });

  it('browser and node agree on random passwords and salts at the default cost', async () => {
    for (let seed = 1; seed <= 3; seed++) {
      const password = `pässwörd ${deterministicBytes(6, seed).toString('base64')} 🔑`;
      const kdfParams = node.argon2Block({ memoryKiB: 65_536, passes: 3, lanes: 1, salt: deterministicBytes(16, seed + 100) }).toString('base64');
      const browser = await deriveAccountSecrets(password, kdfParams);
      const reference = node.deriveAccountSecrets(password, kdfParams);
      expect(browser.authSecret).toBe(reference.authSecret);
      expect(await sealWith(browser.wrappingKey)).toBe(await sealWithRaw(reference.wrappingKey));
    }
  });

  it('the authentication secret differs from the wrapping key, and a changed salt or password changes both', async () => {
    const base = node.deriveAccountSecrets(VECTOR.password, VECTOR.kdfParams);
    expect(Buffer.from(base.authSecret, 'base64').equals(base.wrappingKey)).toBe(false);
    const otherSalt = node.argon2Block({ memoryKiB: 65_536, passes: 3, lanes: 1, salt: Buffer.alloc(16, 1) }).toString('base64');
    expect(node.deriveAccountSecrets(VECTOR.password, otherSalt).authSecret).not.toBe(base.authSecret);
    expect(node.deriveAccountSecrets(`${VECTOR.password}!`, VECTOR.kdfParams).authSecret).not.toBe(base.authSecret);
  });

  it('new parameters carry the default cost and a fresh salt, in both implementations', () => {
    const a = parseAccountKdfParams(newAccountKdfParams());
    const b = parseAccountKdfParams(newAccountKdfParams());
    expect(a).toMatchObject(ARGON2_DEFAULT_COST);
    expect(toHex(a.salt)).not.toBe(toHex(b.salt));
    expect(node.NODE_ARGON2_DEFAULT_COST).toEqual(ARGON2_DEFAULT_COST);
    expect(node.readArgon2Block(Buffer.from(node.newArgon2Block(), 'base64'))).toMatchObject(ARGON2_DEFAULT_COST);
  });

  it('refuses downgraded, oversized, truncated and scheme-1 blocks (attacker-supplied parameters)', async () => {
    const block = (memoryKiB: number, passes: number, lanes: number) =>
      node.argon2Block({ memoryKiB, passes, lanes, salt: Buffer.alloc(16) }).toString('base64');
    for (const bad of [block(1024, 3, 1), block(65_536, 1, 1), block(1_048_576, 3, 1), block(65_536, 1000, 1), block(65_536, 3, 0), block(65_536, 3, 9)]) {
      await expectCryptoError(deriveAccountSecrets(VECTOR.password, bad), 'MALFORMED');
      expect(() => node.readArgon2Block(Buffer.from(bad, 'base64'))).toThrow(node.OfflineCryptoError);
    }
    const truncated = Buffer.from(VECTOR.kdfParams, 'base64').subarray(0, 25).toString('base64');
    await expectCryptoError(deriveAccountSecrets(VECTOR.password, truncated), 'MALFORMED');
    const scheme1 = Buffer.concat([Buffer.from([1, 0, 3, 0xd0, 0x90]), Buffer.alloc(16)]).toString('base64');
    await expectCryptoError(deriveAccountSecrets(VECTOR.password, scheme1), 'MALFORMED');
    const scheme9 = Buffer.concat([Buffer.from([9]), Buffer.alloc(25)]).toString('base64');
    await expectCryptoError(deriveAccountSecrets(VECTOR.password, scheme9), 'UNSUPPORTED_VERSION');
  });
});
