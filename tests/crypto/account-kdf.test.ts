/**
 * Schemes 3 and 2 (argon2id + HKDF, docs/format.md "Login key derivation"): fixed vectors, pinned here and
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
    const secrets = await deriveAccountSecrets(VECTOR.password, VECTOR.kdfParams, undefined);
    expect(toHex(decodeBase64(secrets.authSecret))).toBe(VECTOR.authSecretHex);
    expect(await sealWith(secrets.wrappingKey)).toBe(await sealWithRaw(Buffer.from(VECTOR.wrappingKeyHex, 'hex')));
  });

  it('browser and node agree on random passwords and salts at the default cost', async () => {
    for (let seed = 1; seed <= 3; seed++) {
      const password = `pässwörd ${deterministicBytes(6, seed).toString('base64')} 🔑`;
      const kdfParams = node.argon2Block({ memoryKiB: 65_536, passes: 3, lanes: 1, salt: deterministicBytes(16, seed + 100) }).toString('base64');
      const browser = await deriveAccountSecrets(password, kdfParams, undefined);
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
    const a = parseAccountKdfParams(newAccountKdfParams('alice'));
    const b = parseAccountKdfParams(newAccountKdfParams('alice'));
    expect(a).toMatchObject(ARGON2_DEFAULT_COST);
    expect(toHex(a.salt)).not.toBe(toHex(b.salt));
    expect(node.NODE_ARGON2_DEFAULT_COST).toEqual(ARGON2_DEFAULT_COST);
    expect(node.readArgon2Block(Buffer.from(node.newArgon2Block(), 'base64'))).toMatchObject(ARGON2_DEFAULT_COST);
    expect(node.readArgon2Block(Buffer.from(node.newBoundArgon2Block('Alice'), 'base64'))).toMatchObject({ ...ARGON2_DEFAULT_COST, boundName: 'alice' });
    expect(a).toMatchObject({ scheme: 3, name: 'alice' });
  });

  it('refuses downgraded, oversized, truncated and scheme-1 blocks (attacker-supplied parameters)', async () => {
    const block = (memoryKiB: number, passes: number, lanes: number) =>
      node.argon2Block({ memoryKiB, passes, lanes, salt: Buffer.alloc(16) }).toString('base64');
    for (const bad of [block(1024, 3, 1), block(65_536, 1, 1), block(1_048_576, 3, 1), block(65_536, 1000, 1), block(65_536, 3, 0), block(65_536, 3, 9)]) {
      await expectCryptoError(deriveAccountSecrets(VECTOR.password, bad, undefined), 'MALFORMED');
      expect(() => node.readArgon2Block(Buffer.from(bad, 'base64'))).toThrow(node.OfflineCryptoError);
    }
    const truncated = Buffer.from(VECTOR.kdfParams, 'base64').subarray(0, 25).toString('base64');
    await expectCryptoError(deriveAccountSecrets(VECTOR.password, truncated, undefined), 'MALFORMED');
    const scheme1 = Buffer.concat([Buffer.from([1, 0, 3, 0xd0, 0x90]), Buffer.alloc(16)]).toString('base64');
    await expectCryptoError(deriveAccountSecrets(VECTOR.password, scheme1, undefined), 'MALFORMED');
    const scheme9 = Buffer.concat([Buffer.from([9]), Buffer.alloc(25)]).toString('base64');
    await expectCryptoError(deriveAccountSecrets(VECTOR.password, scheme9, undefined), 'UNSUPPORTED_VERSION');
  });
});

const BOUND = {
  password: 'correct horse battery staple',
  // scheme 3, m = 65536 KiB, t = 3, p = 1, salt 00 01 .. 0f, bound to "alice"
  kdfParams: 'AwABAAAAAAADAQABAgMEBQYHCAkKCwwNDg9hbGljZQ==',
  boundSalt: '9ce2b4e09bd3c492ec5d53ba79c98744de56d6bc198035da480b6a3544b8f29d',
  master: 'b1a60f3236912e42a738e40242944fddcbcd1dad4f0926fbd69d71a37c9714a7',
  authSecretHex: '2e8ae8d0fcf6fe1793f0963b363eb75a9e2772f3415689036581ec73c3ad3271',
  wrappingKeyHex: '6c7969164b965af422b179552be09bdcf69560a2697896804d5023cc23a86fa7',
};

describe('login key derivation bound to the account name (scheme 3)', () => {
  const salt = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');

  it('the block and the bound salt are laid out byte for byte as docs/format.md says', () => {
    expect(toHex(decodeBase64(BOUND.kdfParams))).toBe('03' + '00010000' + '00000003' + '01' + '000102030405060708090a0b0c0d0e0f' + '616c696365');
    expect(node.newBoundArgon2Block('Alice', salt)).toBe(BOUND.kdfParams);
    expect(node.boundArgon2Salt('alice', salt).toString('hex')).toBe(BOUND.boundSalt);
    expect(parseAccountKdfParams(BOUND.kdfParams, 'ALICE')).toMatchObject({ scheme: 3, name: 'alice', memoryKiB: 65_536, passes: 3, lanes: 1 });
  });

  it('node and the browser reproduce the pinned vector', async () => {
    expect(node.argon2Master(BOUND.password, node.readArgon2Block(Buffer.from(BOUND.kdfParams, 'base64'))).toString('hex')).toBe(BOUND.master);
    const reference = node.deriveAccountSecrets(BOUND.password, BOUND.kdfParams);
    expect(Buffer.from(reference.authSecret, 'base64').toString('hex')).toBe(BOUND.authSecretHex);
    expect(reference.wrappingKey.toString('hex')).toBe(BOUND.wrappingKeyHex);
    const browser = await deriveAccountSecrets(BOUND.password, BOUND.kdfParams, 'alice');
    expect(toHex(decodeBase64(browser.authSecret))).toBe(BOUND.authSecretHex);
    expect(await sealWith(browser.wrappingKey)).toBe(await sealWithRaw(Buffer.from(BOUND.wrappingKeyHex, 'hex')));
  });

  it('two names given the same server salt derive different secrets (no table of guesses shared across accounts)', async () => {
    const forAlice = node.newBoundArgon2Block('alice', salt);
    const forBob = node.newBoundArgon2Block('bob', salt);
    const alice = await deriveAccountSecrets(BOUND.password, forAlice, 'alice');
    const bob = await deriveAccountSecrets(BOUND.password, forBob, 'bob');
    expect(alice.authSecret).not.toBe(bob.authSecret);
    expect(await sealWith(alice.wrappingKey)).not.toBe(await sealWith(bob.wrappingKey));
    expect(node.deriveAccountSecrets(BOUND.password, forBob).authSecret).toBe(bob.authSecret);
  });

  it('refuses a block bound to another name than the one signed in with, before any derivation', async () => {
    expect(() => parseAccountKdfParams(BOUND.kdfParams, 'bob')).toThrow(expect.objectContaining({ code: 'KDF_NAME_MISMATCH' }));
    await expectCryptoError(deriveAccountSecrets(BOUND.password, BOUND.kdfParams, 'bob'), 'KDF_NAME_MISMATCH');
  });

  it('browser and node agree on random names, passwords and salts', async () => {
    for (let seed = 1; seed <= 2; seed++) {
      const password = `pässwörd ${deterministicBytes(6, seed).toString('base64')} 🔑`;
      const name = `user-${deterministicBytes(3, seed + 50).toString('hex')}`;
      const kdfParams = node.newBoundArgon2Block(name, deterministicBytes(16, seed + 100));
      const browser = await deriveAccountSecrets(password, kdfParams, name);
      const reference = node.deriveAccountSecrets(password, kdfParams);
      expect(browser.authSecret).toBe(reference.authSecret);
      expect(await sealWith(browser.wrappingKey)).toBe(await sealWithRaw(reference.wrappingKey));
    }
  });

  it('refuses damaged bound blocks: no name, a name not lower-cased, a name that is not UTF-8', async () => {
    const head = Buffer.from(BOUND.kdfParams, 'base64').subarray(0, 26);
    for (const name of [Buffer.alloc(0), Buffer.from('Alice'), Buffer.from([0xff, 0xfe]), Buffer.from('a\0b')]) {
      const bad = Buffer.concat([head, name]).toString('base64');
      await expectCryptoError(deriveAccountSecrets(BOUND.password, bad, undefined), 'MALFORMED');
      expect(() => node.readArgon2Block(Buffer.from(bad, 'base64'))).toThrow(node.OfflineCryptoError);
    }
  });
});
