/** Shared fixtures for the crypto suites: keys in both implementations' shapes, deterministic data. */
import { createHash } from 'node:crypto';
import { asCipherBytes, CryptoError, importRawFileKey, type CipherBytes, type CryptoErrorCode } from '../../crypto/index.ts';

export interface FileSecrets {
  raw: Buffer;
  iv: Buffer;
  key: CryptoKey;
}

export async function fileSecrets(seed: number): Promise<FileSecrets> {
  const raw = deterministicBytes(32, seed);
  const iv = deterministicBytes(12, seed + 1);
  return { raw, iv, key: await importRawFileKey(new Uint8Array(raw)) };
}

/** Reproducible pseudo-random bytes (SHA-256 in counter mode), so failures can be replayed. */
export function deterministicBytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let offset = 0;
  for (let block = 0; offset < length; block++) {
    const digest = createHash('sha256').update(`${seed}:${block}`).digest();
    offset += digest.copy(out, offset);
  }
  return out;
}

export function bytes(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer);
}

/** Bytes from node:crypto (or altered on purpose) handed to the browser implementation's decrypt. */
export function cipherBytes(buffer: Buffer): CipherBytes {
  return asCipherBytes(new Uint8Array(buffer));
}

export async function expectCryptoError(promise: Promise<unknown>, codes: CryptoErrorCode | CryptoErrorCode[]): Promise<CryptoError> {
  const allowed = Array.isArray(codes) ? codes : [codes];
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  if (!(caught instanceof CryptoError)) {
    throw new Error(`expected CryptoError ${allowed.join('|')}, got ${caught === undefined ? 'success' : String(caught)}`);
  }
  if (!allowed.includes(caught.code)) throw new Error(`expected CryptoError ${allowed.join('|')}, got ${caught.code}: ${caught.message}`);
  return caught;
}
