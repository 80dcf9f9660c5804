// Test double of the worker pool for jsdom component tests (jsdom has no Workers): the same
// crypto/ functions the crypto worker runs, called in this thread, with handles kept in a map.
// Real cryptography, so a test can check that what the UI saved opens with the right password.
import {
  exportPublicKeySpki,
  generateKeyPair,
  rewrapPrivateKey,
  unwrapPrivateKey,
  wrapPrivateKey,
} from '../../../../crypto/index.ts';
import { publicKeyOfWrappedPrivateKey } from '../../../../workers/key-operations.ts';
import type { KeyOperations } from '../keyOperations.ts';

/** Fewer KDF iterations than production, only to keep the tests quick (the minimum the format allows). */
export const TEST_ITERATIONS = 100_000;

export function inThreadKeyOperations() {
  const held = new Map<string, CryptoKey>();
  let next = 0;
  const operations: KeyOperations = {
    async generateKeyPair(password) {
      const pair = await generateKeyPair();
      const wrapped = await wrapPrivateKey(pair.privateKey, password, TEST_ITERATIONS);
      return { publicKeySpki: await exportPublicKeySpki(pair.publicKey), encryptedPrivateKey: wrapped.encryptedPrivateKey, kdfSalt: wrapped.kdfSalt };
    },
    async unlockPrivateKey(data, password) {
      const key = await unwrapPrivateKey(data, password);
      const id = `handle-${++next}`;
      held.set(id, key);
      return id;
    },
    async rewrapPrivateKey(data, oldPassword, newPassword) {
      const { encryptedPrivateKey, kdfSalt } = await rewrapPrivateKey(data, oldPassword, newPassword);
      return { encryptedPrivateKey, kdfSalt };
    },
    publicKeyOf(data, password) {
      return publicKeyOfWrappedPrivateKey(data, password);
    },
    async releasePrivateKey(handleId) {
      held.delete(handleId);
    },
  };
  return { operations, held };
}

/** Key data wrapped under `password`, with its public key, made outside the code under test. */
export async function makeKeyData(password: string) {
  const pair = await generateKeyPair();
  const wrapped = await wrapPrivateKey(pair.privateKey, password, TEST_ITERATIONS);
  return {
    publicKeySpki: await exportPublicKeySpki(pair.publicKey),
    keyData: { encryptedPrivateKey: wrapped.encryptedPrivateKey as string, kdfSalt: wrapped.kdfSalt as string },
  };
}
