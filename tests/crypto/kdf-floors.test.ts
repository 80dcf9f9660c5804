/**
 * What a client derives with when the server (or whoever answers in its place) hands it the
 * parameter block: nothing below the default cost (KDF_REFUSED, nothing derived), and for a
 * password link made from now on, nothing but the block its fragment pins.
 */
import { describe, expect, it } from 'vitest';
import {
  checkReleasedLinkKeys,
  checkServerLinkKdfParams,
  CryptoError,
  decodeBase64,
  deriveAccountSecrets,
  deriveLinkPasswordVerifier,
  encodeBase64,
  formatLinkKdfPin,
  openLinkKeys,
  parseAccountKdfParams,
  parseLinkKdfPin,
} from '../../crypto/index.ts';
import * as node from '../../server/crypto/index.ts';
import { expectCryptoError } from './helpers.ts';

const argon2 = (memoryKiB: number, passes: number, salt = Buffer.alloc(16, 7)) => node.argon2Block({ memoryKiB, passes, lanes: 1, salt }).toString('base64');
const pbkdf2 = (iterations: number) => node.kdfBlock({ scheme: node.SCHEME_PBKDF2, iterations, salt: Buffer.alloc(16, 9) }).toString('base64');
const WEAK_BLOCKS = { '19 MiB, 2 passes': argon2(19_456, 2), '64 MiB, 2 passes': argon2(65_536, 2), '32 MiB, 3 passes': argon2(32_768, 3) };

function refused(run: () => unknown): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CryptoError);
  expect((caught as CryptoError).code).toBe('KDF_REFUSED');
}

describe('KDF floors (browser)', () => {
  it.each(Object.entries(WEAK_BLOCKS))('an account block of %s is refused before any derivation', async (_name, block) => {
    refused(() => parseAccountKdfParams(block));
    await expectCryptoError(deriveAccountSecrets('Sonnenblume 2026!', block, undefined), 'KDF_REFUSED');
  });

  it('an account block at the default cost is read', () => {
    expect(parseAccountKdfParams(argon2(65_536, 3))).toMatchObject({ memoryKiB: 65_536, passes: 3 });
  });

  it('a link block below the default cost, or scheme 1 below 150000 iterations, yields no verifier', async () => {
    for (const block of [...Object.values(WEAK_BLOCKS), pbkdf2(100_000)]) {
      await expectCryptoError(deriveLinkPasswordVerifier('Sonnenblume 2026!', block), 'KDF_REFUSED');
    }
  });

  it('released keys wrapped under a weak block are not opened', async () => {
    const weak = node.protectLinkKeys('Sonnenblume 2026!', new Map([['5', Buffer.alloc(32, 1)]]), { scheme: 2, cost: { memoryKiB: 19_456, passes: 2, lanes: 1 } });
    await expectCryptoError(openLinkKeys('Sonnenblume 2026!', weak.reencryptedKeys), 'KDF_REFUSED');
  });

  it('a link made before pins (scheme 1 at 150000 iterations) still yields its verifier', async () => {
    const old = node.protectLinkKeys('Sonnenblume 2026!', new Map([['5', Buffer.alloc(32, 1)]]), { scheme: 1 });
    expect(await deriveLinkPasswordVerifier('Sonnenblume 2026!', old.kdfParams)).toBe(old.verifier);
  });
});

describe('the parameter pin of a password link', () => {
  const block = argon2(65_536, 3, Buffer.from('00112233445566778899aabbccddeeff', 'hex'));

  it('round-trips through the fragment, URL-safe and without padding', () => {
    const fragment = formatLinkKdfPin(block);
    expect(fragment).toMatch(/^kdf=[A-Za-z0-9_-]+$/);
    expect(encodeBase64(parseLinkKdfPin(`#${fragment}`)!)).toBe(block);
    expect(parseLinkKdfPin(null)).toBeNull();
    expect(parseLinkKdfPin('')).toBeNull();
  });

  it('a fragment that is not a pin is MALFORMED', () => {
    for (const bad of ['1:AAAA', 'kdf=AAAA', 'kdf=%zz']) {
      expect(() => parseLinkKdfPin(bad)).toThrow(CryptoError);
    }
  });

  it('the pinned block passes; a swapped salt, a weaker cost or a scheme-1 block is refused', () => {
    const pin = parseLinkKdfPin(formatLinkKdfPin(block));
    checkServerLinkKdfParams(block, pin);
    refused(() => checkServerLinkKdfParams(argon2(65_536, 3), pin));
    refused(() => checkServerLinkKdfParams(argon2(19_456, 2, Buffer.from(decodeBase64(block).subarray(10))), pin));
    refused(() => checkServerLinkKdfParams(pbkdf2(150_000), pin));
  });

  it('without a pin, the server block only has to reach the default cost', () => {
    checkServerLinkKdfParams(block, null);
    checkServerLinkKdfParams(pbkdf2(150_000), null);
    refused(() => checkServerLinkKdfParams(argon2(19_456, 2), null));
  });

  it('released keys must carry the pinned block', () => {
    const made = node.protectLinkKeys('Sonnenblume 2026!', new Map([['5', Buffer.alloc(32, 1)]]));
    checkReleasedLinkKeys(made.reencryptedKeys, parseLinkKdfPin(formatLinkKdfPin(made.kdfParams)));
    refused(() => checkReleasedLinkKeys(made.reencryptedKeys, parseLinkKdfPin(formatLinkKdfPin(block))));
  });
});
