/**
 * Key-pair operations the keys feature needs beyond crypto-worker-api.ts, run inside a crypto
 * worker. Restoring a backup must also put back the matching public key, and a backup holds only
 * the wrapped private key: its public half is recovered here from the private key's own RSA
 * parameters (n and e are part of every PKCS8 RSA key), so the private key never leaves the worker.
 */
import {
  type PublicKeySpki,
  exportPublicKeySpki,
  importPublicKeySpki,
  RSA_ALGORITHM,
  unwrapPrivateKey,
} from '../crypto/index.ts';

export interface WrappedKeyData {
  readonly encryptedPrivateKey: string;
  readonly kdfSalt: string;
}

/**
 * The SPKI public key belonging to a wrapped private key; WRONG_PASSWORD when `password` does not
 * open it, MALFORMED for damaged data (both CryptoError, from unwrapPrivateKey and importPublicKeySpki).
 */
export async function publicKeyOfWrappedPrivateKey(data: WrappedKeyData, password: string): Promise<PublicKeySpki> {
  // Extractable only inside this call, to read the public parameters; the key is dropped afterwards.
  const privateKey = await unwrapPrivateKey(data, password, true);
  const jwk = await crypto.subtle.exportKey('jwk', privateKey);
  const publicKey = await crypto.subtle.importKey('jwk', { kty: 'RSA', n: jwk.n, e: jwk.e, alg: jwk.alg, ext: true }, RSA_ALGORITHM, true, [
    'encrypt',
  ]);
  const spki = await exportPublicKeySpki(publicKey);
  // Same checks an uploader's browser applies (RSA-2048, e = 65537).
  await importPublicKeySpki(spki);
  return spki;
}
