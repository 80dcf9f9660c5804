/**
 * An unfinished upload's file key kept across page loads (docs/format.md, "Resuming and nonce
 * reuse"). The key is wrapped with AES-256-GCM under a *storage key*: a non-extractable AES key
 * made once per origin and kept in IndexedDB as a CryptoKey object, so script of this origin can
 * use it but nobody (not even this origin) can read its bytes. The wrap is bound (additional data)
 * to the queue entry it belongs to, so a wrapped key copied into another entry does not open.
 *
 * The stored form is never the raw key: a StoredFileKey is useless without the CryptoKey in the
 * same browser profile.
 */
import { decodeBase64, decodeBase64Exact, encodeBase64 } from './base64.ts';
import type { Brand } from './branded.ts';
import { randomBytes, utf8 } from './bytes.ts';
import { CryptoError, isAuthenticationFailure } from './errors.ts';

const AES_GCM_256 = { name: 'AES-GCM', length: 256 } as const;
const WRAP_NONCE_LENGTH = 12;
/** A raw 32-byte key plus the 16-byte tag. */
const WRAPPED_LENGTH = 48;

/** base64 of a file key wrapped under the storage key; opens only with that key and its context. */
export type StorageWrappedKey = Brand<string, 'StorageWrappedKey'>;

export interface StoredFileKey {
  readonly wrapped: StorageWrappedKey;
  /** The wrap's own nonce (a fresh one per wrap; unrelated to the file's IV). */
  readonly nonce: string;
}

/** The per-origin storage key: usable for wrapping only, and never extractable. */
export function generateStorageKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey(AES_GCM_256, false, ['wrapKey', 'unwrapKey']);
}

function assertStorageKey(key: CryptoKey): void {
  // A storage key that could be exported would defeat the point of wrapping: refuse it.
  if (key.extractable || key.algorithm.name !== 'AES-GCM' || !key.usages.includes('wrapKey') || !key.usages.includes('unwrapKey')) {
    throw new CryptoError('MALFORMED', 'the storage key must be a non-extractable AES-GCM wrapping key');
  }
}

/** Wraps `fileKey` (extractable, as file keys are) for storage; `context` names the queue entry. */
export async function wrapFileKeyForStorage(fileKey: CryptoKey, storageKey: CryptoKey, context: string): Promise<StoredFileKey> {
  assertStorageKey(storageKey);
  const nonce = randomBytes(WRAP_NONCE_LENGTH);
  const wrapped = await crypto.subtle.wrapKey('raw', fileKey, storageKey, { name: 'AES-GCM', iv: nonce, additionalData: utf8(context) });
  return { wrapped: encodeBase64(new Uint8Array(wrapped)) as string as StorageWrappedKey, nonce: encodeBase64(nonce) };
}

/**
 * The file key back, inside the calling worker. A wrong storage key (the origin's storage was
 * cleared and a new key made), a different context or altered bytes are INTEGRITY: never a
 * fallback to a fresh key here; the caller decides to start the file over.
 */
export async function unwrapStoredFileKey(stored: StoredFileKey, storageKey: CryptoKey, context: string): Promise<CryptoKey> {
  assertStorageKey(storageKey);
  const wrapped = decodeBase64(stored.wrapped, 'stored file key');
  if (wrapped.length !== WRAPPED_LENGTH) throw new CryptoError('MALFORMED', `stored file key must be ${WRAPPED_LENGTH} bytes, got ${wrapped.length}`);
  const nonce = decodeBase64Exact(stored.nonce, WRAP_NONCE_LENGTH, 'stored file key nonce');
  try {
    // Extractable like every file key: a resumed upload may need it wrapped for the recipient again.
    return await crypto.subtle.unwrapKey('raw', wrapped, storageKey, { name: 'AES-GCM', iv: nonce, additionalData: utf8(context) }, AES_GCM_256, true, [
      'encrypt',
      'decrypt',
    ]);
  } catch (error) {
    if (isAuthenticationFailure(error)) throw new CryptoError('INTEGRITY', 'stored file key does not open with this storage key and entry', { cause: error });
    throw error;
  }
}
