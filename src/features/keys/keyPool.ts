// What the keys feature asks of the crypto worker pool. UI code never calls crypto.subtle (style
// rule 1): callers pass the app's one pool (src/app/cryptoPool.ts: useCryptoPool() in components,
// a parameter below them), the decrypted private key stays inside a worker and this thread holds
// only the handle the pool returned. Passwords pass through to the worker and are not kept.
import type { CryptoPool } from '../../../workers/index.ts';
import type { KeyData } from './backupFile.ts';

export type KeyPool = Pick<CryptoPool, 'generateWrappedKeyPair' | 'unlockPrivateKey' | 'rewrapPrivateKey' | 'publicKeyOfWrappedPrivateKey' | 'releaseKey'>;

/** A new key pair as the pool returns it: the private key only wrapped under the login password. */
export interface GeneratedKeyPairData extends KeyData {
  publicKeySpki: string;
}
