/**
 * The private key under a passkey (docs/format.md, "The private key under a passkey"). A passkey
 * whose authenticator has the WebAuthn PRF extension gives, for the fixed salt below, 32 bytes
 * only that credential (with user verification) can produce. From them:
 *
 *   wrappingKey = HKDF-SHA256(ikm = PRF output, salt = empty, info = "sealdrop/passkey-private-key-wrap/v1")
 *   copy        = base64(iv (12) || AES-256-GCM(wrappingKey, iv, PKCS8, aad = AAD_LABEL || 0x00 || credential id))
 *
 * The additional data binds the copy to its credential id: a server that hands one passkey's
 * copy out with another passkey's sign-in is caught here (WRONG_PASSKEY), before any key is used,
 * even where two credentials' PRF outputs could be made to agree. The PRF output and the wrapping
 * key exist only inside the worker that calls these functions; the caller zeroes the PRF bytes.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import { concatBytes, randomBytes, utf8 } from './bytes.ts';
import { CryptoError, isAuthenticationFailure } from './errors.ts';
import { importPrivateKeyPkcs8 } from './key-pair.ts';
import { IV_LENGTH, TAG_LENGTH } from './record-format.ts';

/** The label the PRF salt is the SHA-256 of (the salt is fixed: one PRF output per credential). */
export const PASSKEY_PRF_SALT_LABEL = 'sealdrop/passkey-prf-salt/v1';

/** SHA-256("sealdrop/passkey-prf-salt/v1"), written out so the page needs no digest to ask for it (checked by a test). */
export const PASSKEY_PRF_SALT: Readonly<Uint8Array<ArrayBuffer>> = new Uint8Array([
  213, 89, 125, 51, 219, 235, 100, 253, 40, 133, 10, 193, 38, 149, 230, 79, 84, 82, 112, 7, 216, 37, 241, 82, 127, 168, 114, 65, 89, 121, 85, 239,
]);

export const PASSKEY_WRAP_INFO = 'sealdrop/passkey-private-key-wrap/v1';
export const PASSKEY_WRAP_AAD_LABEL = 'sealdrop/passkey-private-key/v1';

const PRF_OUTPUT_LENGTH = 32;

async function wrappingKey(prfOutput: Uint8Array<ArrayBuffer>, usages: KeyUsage[]): Promise<CryptoKey> {
  if (prfOutput.length !== PRF_OUTPUT_LENGTH) throw new CryptoError('MALFORMED', 'a PRF output is 32 bytes');
  const ikm = await crypto.subtle.importKey('raw', prfOutput, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(PASSKEY_WRAP_INFO) },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    usages,
  );
}

/** The additional data: the label, a zero byte, the credential id's raw bytes (from its base64url). */
function additionalData(credentialId: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]+$/.test(credentialId)) throw new CryptoError('MALFORMED', 'a credential id is base64url');
  const standard = credentialId.replace(/-/g, '+').replace(/_/g, '/');
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  return concatBytes([utf8(PASSKEY_WRAP_AAD_LABEL), new Uint8Array([0]), decodeBase64(padded, 'credential id')]);
}

/** Wraps an extractable private key for the passkey `credentialId` whose PRF output is given. */
export async function wrapPrivateKeyForPasskey(privateKey: CryptoKey, prfOutput: Uint8Array<ArrayBuffer>, credentialId: string): Promise<string> {
  const key = await wrappingKey(prfOutput, ['encrypt']);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', privateKey));
  try {
    const iv = randomBytes(IV_LENGTH);
    const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(credentialId) }, key, pkcs8));
    return encodeBase64(concatBytes([iv, ciphertext]));
  } finally {
    pkcs8.fill(0);
  }
}

/**
 * Opens a passkey's copy. Another credential's copy, another PRF output or altered data are all
 * WRONG_PASSKEY (GCM cannot tell them apart); data of the wrong shape is MALFORMED.
 */
export async function unwrapPasskeyPrivateKey(
  encryptedPrivateKey: string,
  prfOutput: Uint8Array<ArrayBuffer>,
  credentialId: string,
  extractable = false,
): Promise<CryptoKey> {
  const blob = decodeBase64(encryptedPrivateKey, 'passkey copy of the private key');
  if (blob.length <= IV_LENGTH + TAG_LENGTH) throw new CryptoError('MALFORMED', 'passkey copy is too short to contain IV and tag');
  const key = await wrappingKey(prfOutput, ['decrypt']);
  let pkcs8: Uint8Array<ArrayBuffer>;
  try {
    pkcs8 = new Uint8Array(
      await crypto.subtle.decrypt({ name: 'AES-GCM', iv: blob.subarray(0, IV_LENGTH), additionalData: additionalData(credentialId) }, key, blob.subarray(IV_LENGTH)),
    );
  } catch (error) {
    if (isAuthenticationFailure(error)) {
      throw new CryptoError('WRONG_PASSKEY', "the passkey's copy of the private key does not open with this passkey (another credential's copy, or altered)", { cause: error });
    }
    throw error;
  }
  try {
    return await importPrivateKeyPkcs8(pkcs8, extractable);
  } finally {
    pkcs8.fill(0);
  }
}
