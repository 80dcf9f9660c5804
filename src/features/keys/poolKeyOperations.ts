// KeyOperations on the shared crypto worker pool. The private key handle is only valid in the pool
// that created it, so the whole app must use the one pool of src/app/cryptoPool.ts.

import type { KeyData } from './backupFile.ts';
import type { KeyOperations } from './keyOperationTypes.ts';
import { privateKeyHandle } from './privateKeyHandle.ts';
import { sharedCryptoPool } from '../../app/cryptoPool.ts';

const copy = (data: KeyData): KeyData => ({ encryptedPrivateKey: data.encryptedPrivateKey, kdfSalt: data.kdfSalt });

export const poolKeyOperations: KeyOperations = {
  async generateKeyPair(password) {
    const { publicKeySpki, encryptedPrivateKey, kdfSalt } = await sharedCryptoPool().generateWrappedKeyPair(password);
    return { publicKeySpki, encryptedPrivateKey, kdfSalt };
  },
  async unlockPrivateKey(data, password) {
    return (await sharedCryptoPool().unlockPrivateKey(copy(data), password)).id;
  },
  async rewrapPrivateKey(data, oldPassword, newPassword) {
    return copy(await sharedCryptoPool().rewrapPrivateKey(copy(data), oldPassword, newPassword));
  },
  publicKeyOf(data, password) {
    return sharedCryptoPool().publicKeyOfWrappedPrivateKey(copy(data), password);
  },
  releasePrivateKey(handleId) {
    return sharedCryptoPool().releaseKey(privateKeyHandle(handleId));
  },
};
