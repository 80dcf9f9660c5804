// Getting a link's keys in the recipient's browser, on the real crypto core, with links made by
// the independent node:crypto implementation: fragment present, missing, mangled or naming other
// files; a password link's verifier and keys; a wrong password.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveLinkPasswordVerifier, formatLinkKdfPin, openLinkKeys, parseLinkFragment } from '../../../crypto/index.ts';
import { formatFragment, linkVerifier, protectLinkKeys } from '../../../server/crypto/keys.ts';
import type { SharedFile } from '../../api/linksApi.ts';
import type { FileKeyHandle } from '../../../workers/index.ts';
import { argon2Block } from '../../../server/crypto/index.ts';
import { checkReleasedKeys, fragmentOf, importFragmentKeys, linkPasswordVerifier, openPasswordKeys, LinkKeyError, pinnedLinkKdf } from './linkKeyImport.ts';

function localPool() {
  let counter = 0;
  const released: string[] = [];
  const adopt = (keys: Map<string, CryptoKey>) =>
    new Map([...keys.keys()].map((fileId) => [fileId, { id: `k${++counter}`, kind: 'file' } as FileKeyHandle]));
  return {
    released,
    pool: {
      parseLinkFragment: async (fragment: string) => adopt(await parseLinkFragment(fragment)),
      openLinkKeys: async (password: string, keys: Record<string, string>) => adopt(await openLinkKeys(password, keys)),
      deriveLinkPasswordVerifier: (password: string, kdfParams: string) => deriveLinkPasswordVerifier(password, kdfParams),
      releaseKeys: async (handles: Iterable<{ id: string }>) => {
        for (const handle of handles) released.push(handle.id);
      },
    },
  };
}

const files: SharedFile[] = [
  { id: 3, original_filename: 'a.txt', file_size: 1, encryption_iv: 'x' },
  { id: 4, original_filename: 'b.txt', file_size: 2, encryption_iv: 'y' },
];
const rawKeys = new Map([
  ['3', randomBytes(32)],
  ['4', randomBytes(32)],
]);

async function rejection(promise: Promise<unknown>): Promise<LinkKeyError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LinkKeyError);
  return error as LinkKeyError;
}

describe('fragmentOf', () => {
  it('strips the # and treats an empty fragment as none', () => {
    expect(fragmentOf('#3:abc')).toBe('3:abc');
    expect(fragmentOf('')).toBeNull();
    expect(fragmentOf('#')).toBeNull();
    expect(fragmentOf('#  ')).toBeNull();
  });
});

describe('importFragmentKeys', () => {
  it('imports every key of a link made by node', async () => {
    const { pool } = localPool();
    const keys = await importFragmentKeys(pool, formatFragment(rawKeys), files);
    expect([...keys.keys()]).toEqual(['3', '4']);
  });

  it('says the keys are missing when there is no fragment', async () => {
    const error = await rejection(importFragmentKeys(localPool().pool, null, files));
    expect(error.code).toBe('keys-missing');
    expect(error.message).toBe('Decryption keys are missing from the link. The link is incomplete or was copied incorrectly.');
  });

  it('says no valid keys were found for a cut or mangled fragment', async () => {
    const fragment = formatFragment(rawKeys);
    for (const broken of [fragment.slice(0, fragment.length - 5), 'garbage', `${fragment},9`, fragment.replace(':', ';')]) {
      const error = await rejection(importFragmentKeys(localPool().pool, broken, files));
      expect(error.code, broken).toBe('keys-invalid');
      expect(error.message).toBe('No valid decryption keys found in the link.');
    }
  });

  it('refuses keys that name none of the link\'s files, and releases them', async () => {
    const { pool, released } = localPool();
    const other = formatFragment(new Map([['99', randomBytes(32)]]));
    const error = await rejection(importFragmentKeys(pool, other, files));
    expect(error.code).toBe('keys-invalid');
    expect(released).toHaveLength(1);
  });

  it('accepts any valid keys for a link whose files were all deleted since', async () => {
    const keys = await importFragmentKeys(localPool().pool, formatFragment(rawKeys), []);
    expect(keys.size).toBe(2);
  });
});

describe('password links', () => {
  it('derive the verifier node derives and open the keys with the password', async () => {
    const { pool } = localPool();
    const protection = protectLinkKeys('SonneWolke30-418', rawKeys);
    expect(await linkPasswordVerifier(pool, 'SonneWolke30-418', protection.kdfParams)).toBe(linkVerifier('SonneWolke30-418', protection.kdfParams));
    const keys = await openPasswordKeys(pool, 'SonneWolke30-418', protection.reencryptedKeys);
    expect([...keys.keys()]).toEqual(['3', '4']);
  });

  it('map a wrong password to the spec\'s decryption message and missing KDF parameters to invalid keys', async () => {
    const { pool } = localPool();
    const protection = protectLinkKeys('SonneWolke30-418', rawKeys);
    const wrong = await rejection(openPasswordKeys(pool, 'SonneWolke30-419', protection.reencryptedKeys));
    expect(wrong.message).toBe('Decryption failed: Incorrect password or corrupted data.');
    expect((await rejection(linkPasswordVerifier(pool, 'x', undefined))).code).toBe('keys-invalid');
    expect((await rejection(linkPasswordVerifier(pool, 'x', 'AAAA'))).code).toBe('keys-invalid');
  });
});

describe('the KDF pin of a password link (a server answering with another block)', () => {
  const REFUSED = "This link's password protection was changed on the way to you, so your password was not used and nothing was sent. Ask the sender for a new link.";
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error as LinkKeyError;
    }
    throw new Error('expected a refusal');
  };

  it('a pinned link opens with its own block; a link without pin (made before) opens with a block at the default cost', () => {
    const protection = protectLinkKeys('SonneWolke30-418', rawKeys);
    const pin = pinnedLinkKdf(formatLinkKdfPin(protection.kdfParams), protection.kdfParams);
    expect(pin).not.toBeNull();
    checkReleasedKeys(protection.reencryptedKeys, pin);
    expect(pinnedLinkKdf(null, protection.kdfParams)).toBeNull();
    expect(pinnedLinkKdf(null, protectLinkKeys('SonneWolke30-418', rawKeys, { scheme: 1 }).kdfParams)).toBeNull();
  });

  it('a swapped salt, a weaker block or a scheme-1 block is refused with the exact text, before any derivation', () => {
    const protection = protectLinkKeys('SonneWolke30-418', rawKeys);
    const fragment = formatLinkKdfPin(protection.kdfParams);
    const swapped = [
      argon2Block({ memoryKiB: 65_536, passes: 3, lanes: 1, salt: Buffer.alloc(16, 3) }).toString('base64'),
      argon2Block({ memoryKiB: 19_456, passes: 2, lanes: 1, salt: Buffer.from(protection.kdfParams, 'base64').subarray(10) }).toString('base64'),
      protectLinkKeys('SonneWolke30-418', rawKeys, { scheme: 1 }).kdfParams,
    ];
    for (const block of swapped) {
      const error = refusal(() => pinnedLinkKdf(fragment, block));
      expect(error.code).toBe('kdf-refused');
      expect(error.message).toBe(REFUSED);
    }
    const other = protectLinkKeys('SonneWolke30-418', rawKeys);
    expect(refusal(() => checkReleasedKeys(other.reencryptedKeys, pinnedLinkKdf(fragment, protection.kdfParams))).code).toBe('kdf-refused');
  });

  it('without a pin a block below the default cost is refused too', () => {
    const weak = argon2Block({ memoryKiB: 19_456, passes: 2, lanes: 1, salt: Buffer.alloc(16, 3) }).toString('base64');
    expect(refusal(() => pinnedLinkKdf(null, weak)).code).toBe('kdf-refused');
  });
});
