/**
 * Password-based key derivation parameters, stored next to the data they protect so the work
 * factor can be raised later without breaking existing data.
 *
 * Parameter block (21 bytes, then base64):
 *   scheme u8 (1 = PBKDF2-HMAC-SHA256) || iterations u32 BE || salt (16 bytes)
 * A bare 16-byte salt (the spec's original kdfSalt) is also read, with the default iteration count
 * of the purpose it protects; everything written by this code uses the full block.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import type { Base64 } from './branded.ts';
import { randomBytes, utf8, type Bytes } from './bytes.ts';
import { CryptoError } from './errors.ts';

export const KDF_SCHEME_PBKDF2_SHA256 = 1;
export const KDF_SALT_LENGTH = 16;
export const KDF_PARAMS_LENGTH = 1 + 4 + KDF_SALT_LENGTH;
/** Spec section 9: the key that wraps the private key. */
export const PRIVATE_KEY_KDF_ITERATIONS = 250_000;
/** Spec section 9: the "second derived key", used for download-link passwords. */
export const LINK_KDF_ITERATIONS = 150_000;
/** Bounds on stored iteration counts: a floor against downgraded data, a ceiling against denial of service. */
export const MIN_KDF_ITERATIONS = 100_000;
export const MAX_KDF_ITERATIONS = 10_000_000;

export interface KdfParams {
  readonly scheme: typeof KDF_SCHEME_PBKDF2_SHA256;
  readonly iterations: number;
  readonly salt: Bytes;
}

export function newKdfParams(iterations: number): KdfParams {
  assertIterations(iterations);
  return { scheme: KDF_SCHEME_PBKDF2_SHA256, iterations, salt: randomBytes(KDF_SALT_LENGTH) };
}

function assertIterations(iterations: number): void {
  if (!Number.isInteger(iterations) || iterations < MIN_KDF_ITERATIONS || iterations > MAX_KDF_ITERATIONS) {
    throw new CryptoError('MALFORMED', `KDF iteration count ${iterations} is outside ${MIN_KDF_ITERATIONS}..${MAX_KDF_ITERATIONS}`);
  }
}

export function encodeKdfParamsBytes(params: KdfParams): Bytes {
  const out = new Uint8Array(KDF_PARAMS_LENGTH);
  out[0] = params.scheme;
  new DataView(out.buffer).setUint32(1, params.iterations, false);
  out.set(params.salt, 5);
  return out;
}

export function encodeKdfParams(params: KdfParams): Base64 {
  return encodeBase64(encodeKdfParamsBytes(params));
}

export function parseKdfParamsBytes(bytes: Uint8Array, legacyIterations: number | undefined, what: string): KdfParams {
  if (bytes.length === KDF_SALT_LENGTH && legacyIterations !== undefined) {
    return { scheme: KDF_SCHEME_PBKDF2_SHA256, iterations: legacyIterations, salt: new Uint8Array(bytes) };
  }
  if (bytes.length !== KDF_PARAMS_LENGTH) {
    throw new CryptoError('MALFORMED', `${what} must be ${KDF_PARAMS_LENGTH} bytes, got ${bytes.length}`);
  }
  if (bytes[0] !== KDF_SCHEME_PBKDF2_SHA256) {
    throw new CryptoError('UNSUPPORTED_VERSION', `${what} uses unknown KDF scheme ${bytes[0]}`);
  }
  const iterations = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1, false);
  assertIterations(iterations);
  return { scheme: KDF_SCHEME_PBKDF2_SHA256, iterations, salt: new Uint8Array(bytes.subarray(5)) };
}

/** Parses a base64 parameter block; `legacyIterations` enables the bare-salt form. */
export function parseKdfParams(text: string, legacyIterations: number | undefined, what: string): KdfParams {
  return parseKdfParamsBytes(decodeBase64(text, what), legacyIterations, what);
}

async function importPassword(password: string): Promise<CryptoKey> {
  if (typeof password !== 'string' || password.length === 0) {
    throw new CryptoError('MALFORMED', 'password must be a non-empty string');
  }
  // The password is used exactly as typed (UTF-8, no normalisation), like the login check itself.
  return crypto.subtle.importKey('raw', utf8(password), 'PBKDF2', false, ['deriveKey', 'deriveBits']);
}

/** PBKDF2 straight to a non-extractable AES-256-GCM key (the private-key wrapping key). */
export async function deriveAesKey(password: string, params: KdfParams, usages: KeyUsage[]): Promise<CryptoKey> {
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: params.salt, iterations: params.iterations },
    await importPassword(password),
    { name: 'AES-GCM', length: 256 },
    false,
    usages,
  );
}

/** PBKDF2 to 256 bits, as HKDF input keying material (link passwords). */
export async function deriveMasterKey(password: string, params: KdfParams): Promise<CryptoKey> {
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: params.salt, iterations: params.iterations },
    await importPassword(password),
    256,
  );
  return crypto.subtle.importKey('raw', bits, 'HKDF', false, ['deriveKey', 'deriveBits']);
}

export function hkdfParams(info: string): HkdfParams {
  return { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(info) };
}
