/**
 * Per-file secrets: a fresh AES-256-GCM key and 12-byte IV for every uploaded file (spec section 7),
 * and the file key wrapped with the recipient's RSA-OAEP public key for storage on the server.
 */
import { decodeBase64, decodeBase64Exact, encodeBase64 } from './base64.ts';
import type { FileIvBase64, WrappedFileKey } from './branded.ts';
import { randomBytes, type Bytes } from './bytes.ts';
import { CryptoError, isAuthenticationFailure } from './errors.ts';
import { RSA_ALGORITHM, RSA_MODULUS_BITS } from './key-pair.ts';
import { IV_LENGTH, KEY_LENGTH } from './record-format.ts';

const AES_GCM = { name: 'AES-GCM', length: 256 } as const;
const FILE_KEY_USAGES: KeyUsage[] = ['encrypt', 'decrypt'];

/**
 * Extractable, because the key leaves the worker in exactly two wrapped or deliberate forms: RSA-
 * wrapped for the server, and raw inside a download link's URL fragment.
 */
export async function generateFileKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey(AES_GCM, true, FILE_KEY_USAGES);
}

export function generateFileIv(): Bytes {
  return randomBytes(IV_LENGTH);
}

export function encodeFileIv(iv: Uint8Array): FileIvBase64 {
  if (iv.length !== IV_LENGTH) throw new CryptoError('MALFORMED', `IV must be ${IV_LENGTH} bytes`);
  return encodeBase64(iv) as string as FileIvBase64;
}

export function parseFileIv(text: string): Bytes {
  return decodeBase64Exact(text, IV_LENGTH, 'encryption IV');
}

export async function importRawFileKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  if (raw.length !== KEY_LENGTH) throw new CryptoError('MALFORMED', `file key must be ${KEY_LENGTH} bytes, got ${raw.length}`);
  return crypto.subtle.importKey('raw', raw, AES_GCM, true, FILE_KEY_USAGES);
}

/** SECRET: the raw key; only for a download link fragment or re-wrapping inside the worker. */
export async function exportRawFileKey(key: CryptoKey): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.exportKey('raw', key));
}

export async function wrapFileKey(fileKey: CryptoKey, recipientPublicKey: CryptoKey): Promise<WrappedFileKey> {
  const wrapped = await crypto.subtle.wrapKey('raw', fileKey, recipientPublicKey, RSA_ALGORITHM);
  return encodeBase64(new Uint8Array(wrapped)) as string as WrappedFileKey;
}

/** A wrong private key (or an altered wrapped key) is WRONG_KEY; a bad shape is MALFORMED. */
export async function unwrapFileKey(wrapped: string, privateKey: CryptoKey): Promise<CryptoKey> {
  const bytes = decodeBase64(wrapped, 'encrypted file key');
  if (bytes.length !== RSA_MODULUS_BITS / 8) {
    throw new CryptoError('MALFORMED', `encrypted file key must be ${RSA_MODULUS_BITS / 8} bytes, got ${bytes.length}`);
  }
  try {
    return await crypto.subtle.unwrapKey('raw', bytes, privateKey, RSA_ALGORITHM, AES_GCM, true, FILE_KEY_USAGES);
  } catch (error) {
    // OperationError: OAEP decoding failed. DataError: it decoded, but not to a 32-byte AES key.
    if (isAuthenticationFailure(error) || (error instanceof Error && error.name === 'DataError')) {
      throw new CryptoError('WRONG_KEY', 'file key could not be unwrapped with this private key', { cause: error });
    }
    throw error;
  }
}
