/**
 * The private key at rest: PKCS8 encrypted with AES-256-GCM under a key derived from the login
 * password. Stored as the spec says: encryptedPrivateKey = base64(IV || ciphertext), kdfSalt =
 * base64(KDF parameter block, kdf.ts); the same two strings form the backup file. Everything new
 * is wrapped under scheme 2 with the account's own parameter block (so the key opens with the
 * same argon2id run that signs in, docs/format.md "Login key derivation"); scheme 1 (PBKDF2, and
 * the bare 16-byte salt) is still opened, for old key data and old backups.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import type { EncryptedPrivateKey, KdfSalt } from './branded.ts';
import { concatBytes, randomBytes } from './bytes.ts';
import { CryptoError, isAuthenticationFailure } from './errors.ts';
import { deriveAesKey, parseKdfParams, PRIVATE_KEY_KDF_ITERATIONS } from './kdf.ts';
import { importPrivateKeyPkcs8 } from './key-pair.ts';
import { IV_LENGTH, TAG_LENGTH } from './record-format.ts';

export interface WrappedPrivateKey {
  readonly encryptedPrivateKey: EncryptedPrivateKey;
  readonly kdfSalt: KdfSalt;
}

/**
 * Wraps under `kdfParams`, a base64 parameter block: the account's scheme-2 block for everything
 * the app writes (the worker API insists on scheme 2); tests pass scheme-1 blocks to make old data.
 */
export async function wrapPrivateKey(privateKey: CryptoKey, password: string, kdfParams: string): Promise<WrappedPrivateKey> {
  const params = parseKdfParams(kdfParams, undefined, 'key derivation parameters');
  const wrappingKey = await deriveAesKey(password, params, ['encrypt']);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', privateKey));
  const iv = randomBytes(IV_LENGTH);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, wrappingKey, pkcs8));
  pkcs8.fill(0);
  return {
    encryptedPrivateKey: encodeBase64(concatBytes([iv, ciphertext])) as string as EncryptedPrivateKey,
    kdfSalt: kdfParams as KdfSalt,
  };
}

/**
 * Opens stored key data with the login password. A wrong password (or altered data) is
 * WRONG_PASSWORD; data of the wrong shape is MALFORMED. `extractable` is for password changes only.
 */
export async function unwrapPrivateKey(
  data: { readonly encryptedPrivateKey: string; readonly kdfSalt: string },
  password: string,
  extractable = false,
): Promise<CryptoKey> {
  const params = parseKdfParams(data.kdfSalt, PRIVATE_KEY_KDF_ITERATIONS, 'key derivation salt');
  const blob = decodeBase64(data.encryptedPrivateKey, 'encrypted private key');
  // Spec: "Decrypting an encrypted private key needs more than 12 bytes" (and GCM adds a tag).
  if (blob.length <= IV_LENGTH + TAG_LENGTH) {
    throw new CryptoError('MALFORMED', 'encrypted private key is too short to contain IV and tag');
  }
  const wrappingKey = await deriveAesKey(password, params, ['decrypt']);
  let pkcs8: Uint8Array<ArrayBuffer>;
  try {
    pkcs8 = new Uint8Array(
      await crypto.subtle.decrypt({ name: 'AES-GCM', iv: blob.subarray(0, IV_LENGTH) }, wrappingKey, blob.subarray(IV_LENGTH)),
    );
  } catch (error) {
    if (isAuthenticationFailure(error)) {
      throw new CryptoError('WRONG_PASSWORD', 'private key could not be decrypted: incorrect password or corrupted data', { cause: error });
    }
    throw error;
  }
  try {
    return await importPrivateKeyPkcs8(pkcs8, extractable);
  } finally {
    pkcs8.fill(0);
  }
}

/**
 * Password change, restore of an older backup, first sign-in on the new scheme: open with the
 * password it was wrapped under, wrap again under `newPassword` and `newKdfParams` (fresh IV).
 */
export async function rewrapPrivateKey(
  data: { readonly encryptedPrivateKey: string; readonly kdfSalt: string },
  oldPassword: string,
  newPassword: string,
  newKdfParams: string,
): Promise<WrappedPrivateKey> {
  const privateKey = await unwrapPrivateKey(data, oldPassword, true);
  return wrapPrivateKey(privateKey, newPassword, newKdfParams);
}
