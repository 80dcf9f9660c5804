/**
 * What every copy of the private key after a single sign-on shares (docs/format.md, "The private
 * key after a single sign-on"): base64(iv (12) || AES-256-GCM(key, iv, PKCS8, aad)). Each kind of
 * copy (device-key-wrap.ts, recovery-key-wrap.ts, device-approval.ts) brings its own key and
 * additional data; this module seals and opens, and checks on opening that the key inside is the
 * account's key pair: a server that hands out a valid copy of some other key pair (one it knows)
 * is caught here as WRONG_KEY before the key is used. The PKCS8 bytes are zeroed after use.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import { concatBytes, randomBytes, utf8, type Bytes } from './bytes.ts';
import { CryptoError, isAuthenticationFailure } from './errors.ts';
import { importPrivateKeyPkcs8 } from './key-pair.ts';
import { IV_LENGTH, TAG_LENGTH } from './record-format.ts';
import { publicKeySpkiOfPrivateKey } from './team-keys.ts';

/** A copy's bytes, checked for shape only (nothing is decrypted yet). */
export interface ParsedPrivateKeyCopy {
  readonly iv: Bytes;
  readonly ciphertext: Bytes;
}

/** MALFORMED unless `copy` is base64 of more than an IV and a tag; `what` names it in the message. */
export function parsePrivateKeyCopy(copy: string, what: string): ParsedPrivateKeyCopy {
  const blob = decodeBase64(copy, what);
  if (blob.length <= IV_LENGTH + TAG_LENGTH) throw new CryptoError('MALFORMED', `${what} is too short to contain IV and tag`);
  return { iv: blob.subarray(0, IV_LENGTH), ciphertext: blob.subarray(IV_LENGTH) };
}

/** The account's public key as the server stores it (`public_key_spki`, base64 SPKI); MALFORMED when not base64. */
export function parseExpectedSpki(expectedSpki: string): Bytes {
  return decodeBase64(expectedSpki, "the account's public key");
}

/**
 * The UTF-8 of an id or name put into additional data after a zero byte: empty or holding NUL is
 * MALFORMED (neither is anything the server hands out, and a NUL would blur the separators).
 */
export function boundText(value: string, what: string): Bytes {
  if (typeof value !== 'string' || value.length === 0 || value.includes('\0')) {
    throw new CryptoError('MALFORMED', `${what} must be a non-empty string without NUL`);
  }
  return utf8(value);
}

/** label || 0x00 || parts, each part after its own zero byte. */
export function labelledData(label: string, ...parts: readonly Uint8Array[]): Bytes {
  return concatBytes([utf8(label), ...parts.flatMap((part) => [new Uint8Array([0]), part])]);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

async function assertPublicHalf(extractablePrivateKey: CryptoKey, expectedSpki: Bytes): Promise<void> {
  const actual = decodeBase64(await publicKeySpkiOfPrivateKey(extractablePrivateKey), 'public key');
  if (!equalBytes(actual, expectedSpki)) {
    throw new CryptoError('WRONG_KEY', "the copy holds a private key of another key pair than the account's");
  }
}

/**
 * WRONG_KEY unless the extractable private key's public half is `expectedSpki` (the account's
 * base64 SPKI); for keys opened elsewhere (the login password's key data) before they are wrapped again.
 */
export async function assertAccountKeyPair(extractablePrivateKey: CryptoKey, expectedSpki: string): Promise<void> {
  await assertPublicHalf(extractablePrivateKey, parseExpectedSpki(expectedSpki));
}

/** Seals an extractable private key's PKCS8 under `key` (AES-256-GCM, encrypt) with `aad`, a fresh IV. */
export async function sealPrivateKeyCopy(extractablePrivateKey: CryptoKey, key: CryptoKey, aad: Bytes): Promise<string> {
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', extractablePrivateKey));
  try {
    const iv = randomBytes(IV_LENGTH);
    const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, pkcs8));
    return encodeBase64(concatBytes([iv, ciphertext]));
  } finally {
    pkcs8.fill(0);
  }
}

/**
 * Opens a parsed copy under `key` with `aad` and checks the key pair. The wrong key, altered data or
 * other additional data are WRONG_KEY (GCM cannot tell them apart), as is a key of another key pair.
 * The result is extractable only when asked for (to be wrapped again inside the same call).
 */
export async function openPrivateKeyCopy(
  copy: ParsedPrivateKeyCopy,
  key: CryptoKey,
  aad: Bytes,
  expectedSpki: Bytes,
  extractable: boolean,
  what: string,
): Promise<CryptoKey> {
  let pkcs8: Bytes;
  try {
    pkcs8 = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: copy.iv, additionalData: aad }, key, copy.ciphertext));
  } catch (error) {
    if (isAuthenticationFailure(error)) {
      throw new CryptoError('WRONG_KEY', `${what} does not open with this key (another key, binding, or altered)`, { cause: error });
    }
    throw error;
  }
  try {
    const checked = await importPrivateKeyPkcs8(pkcs8, true);
    await assertPublicHalf(checked, expectedSpki);
    return extractable ? checked : await importPrivateKeyPkcs8(pkcs8, false);
  } finally {
    pkcs8.fill(0);
  }
}
