/**
 * The private key under the account's recovery key (docs/format.md, "The private key after a
 * single sign-on"), the way back in when no trusted device is left:
 *
 *   wrappingKey = HKDF-SHA256(ikm = the 20 bytes, salt = empty, info = RECOVERY_WRAP_INFO)
 *   copy        = base64(iv (12) || AES-256-GCM(wrappingKey, iv, PKCS8, aad = RECOVERY_WRAP_AAD_LABEL || 0x00 || username))
 *
 * 160 random bits need no slow KDF. The username is bound lower-cased (as the server matches names
 * and as scheme-3 blocks bind them), so a copy handed to another account does not open and a change
 * of letter case keeps it. The recovery key's text form is recovery-key.ts.
 */
import type { Bytes } from './bytes.ts';
import { utf8 } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { normaliseAccountName } from './kdf.ts';
import { boundText, labelledData, openPrivateKeyCopy, parseExpectedSpki, parsePrivateKeyCopy, sealPrivateKeyCopy } from './private-key-copy.ts';
import { RECOVERY_KEY_BYTES } from './recovery-key.ts';

export const RECOVERY_WRAP_INFO = 'sealdrop/recovery-private-key-wrap/v1';
export const RECOVERY_WRAP_AAD_LABEL = 'sealdrop/recovery-private-key/v1';

async function wrappingKey(recoveryKey: Bytes, usage: KeyUsage): Promise<CryptoKey> {
  if (recoveryKey.length !== RECOVERY_KEY_BYTES) throw new CryptoError('MALFORMED', `a recovery key is ${RECOVERY_KEY_BYTES} bytes`);
  const ikm = await crypto.subtle.importKey('raw', recoveryKey, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(RECOVERY_WRAP_INFO) },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  );
}

const additionalData = (username: string) => labelledData(RECOVERY_WRAP_AAD_LABEL, boundText(normaliseAccountName(username), 'a username'));

/** Seals an extractable private key under the recovery key (its 20 bytes) for `username`. */
export async function wrapPrivateKeyForRecovery(privateKey: CryptoKey, recoveryKey: Bytes, username: string): Promise<string> {
  const aad = additionalData(username);
  return sealPrivateKeyCopy(privateKey, await wrappingKey(recoveryKey, 'encrypt'), aad);
}

/**
 * Opens the recovery copy. Another recovery key, another username, altered data, or a copy of
 * another key pair than `expectedSpki` (the account's base64 SPKI) are WRONG_KEY; a wrong shape is MALFORMED.
 */
export async function unwrapRecoveryPrivateKey(
  copy: string,
  recoveryKey: Bytes,
  username: string,
  expectedSpki: string,
  extractable = false,
): Promise<CryptoKey> {
  const parsed = parsePrivateKeyCopy(copy, 'the recovery copy of the private key');
  const expected = parseExpectedSpki(expectedSpki);
  const aad = additionalData(username);
  const key = await wrappingKey(recoveryKey, 'decrypt');
  return openPrivateKeyCopy(parsed, key, aad, expected, extractable, 'the recovery copy of the private key');
}
