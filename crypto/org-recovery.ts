/**
 * The organisation recovery policy (docs/format.md, "The organisation recovery key"): one ECDH
 * P-256 key pair per server whose private half only organisation admins hold, each a copy sealed
 * to their account key; while the policy is on, each member's private key is also sealed to its
 * public half, so an admin can give a member who lost every device their key again.
 *
 *   member's copy (ECDH-ES to the organisation key):
 *     e           = a fresh ECDH P-256 key pair
 *     wrappingKey = HKDF-SHA256(ikm = ECDH(e, org public), salt = SHA-256(org SPKI), info = ORG_RECOVERY_MEMBER_LABEL)
 *     aad         = ORG_RECOVERY_MEMBER_LABEL || 0x00 || member's user id (decimal) || 0x00 || SHA-256(member's SPKI)
 *     copy        = base64(SPKI of e (91 bytes) || iv (12) || AES-256-GCM(wrappingKey, iv, member's PKCS8, aad))
 *
 *   admin's copy of the organisation private key (account keys are RSA-OAEP-2048, so no ECDH:
 *   a fresh AES key sealed with RSA-OAEP, as team-folder envelopes do):
 *     k           = 32 random bytes
 *     aad         = ORG_RECOVERY_ADMIN_LABEL || 0x00 || admin's user id (decimal) || 0x00 || SHA-256(org SPKI)
 *     copy        = base64(RSA-OAEP-SHA256(admin's public key, k) (256) || iv (12) || AES-256-GCM(k, iv, org PKCS8, aad))
 *
 * Opening checks what was opened: the member's key against the member's public key, the
 * organisation key against the organisation's public key. The wrong key, another binding or
 * altered bytes are WRONG_KEY; a wrong shape is MALFORMED.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import { concatBytes, randomBytes, type Bytes } from './bytes.ts';
import { agreedWrappingKey, importApprovalPublicKey } from './device-approval.ts';
import { CryptoError, isAuthenticationFailure } from './errors.ts';
import { importPublicKeySpki, RSA_ALGORITHM, RSA_MODULUS_BITS } from './key-pair.ts';
import { boundText, labelledData, openPrivateKeyCopy, parseExpectedSpki, parsePrivateKeyCopy, sealPrivateKeyCopy } from './private-key-copy.ts';
import { IV_LENGTH, TAG_LENGTH } from './record-format.ts';

/** The purpose label of a member's copy: its key derivation and its additional data. */
export const ORG_RECOVERY_MEMBER_LABEL = 'sealdrop/org-recovery-member/v1';
/** The purpose label of an admin's copy of the organisation private key. */
export const ORG_RECOVERY_ADMIN_LABEL = 'sealdrop/org-recovery-admin/v1';

const ECDH_P256: EcKeyImportParams = { name: 'ECDH', namedCurve: 'P-256' };
/** An uncompressed P-256 public key in SPKI form, as WebCrypto and node export it. */
export const P256_SPKI_LENGTH = 91;
const CONTENT_KEY_LENGTH = 32;
const RSA_WRAPPED_LENGTH = RSA_MODULUS_BITS / 8;

/** The organisation key pair as it is made: the private half extractable, to be sealed to admins. */
export interface OrgRecoveryKeyPair {
  readonly privateKey: CryptoKey;
  readonly publicKeySpki: string;
}

const sha256 = async (bytes: Bytes): Promise<Bytes> => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));

function userIdText(userId: number, what: string): Bytes {
  if (!Number.isSafeInteger(userId) || userId < 1) throw new CryptoError('MALFORMED', `${what} must be a positive integer`);
  return boundText(String(userId), what);
}

async function orgPublicKey(orgSpki: string): Promise<{ key: CryptoKey; hash: Bytes }> {
  const imported = await importApprovalPublicKey(orgSpki, "the organisation's public key");
  return { key: imported.key, hash: await sha256(imported.spki) };
}

const memberWrappingKey = (ownPrivate: CryptoKey, otherPublic: CryptoKey, orgSpkiHash: Bytes, usage: KeyUsage) =>
  agreedWrappingKey(ownPrivate, otherPublic, orgSpkiHash, ORG_RECOVERY_MEMBER_LABEL, usage);

async function memberAad(memberUserId: number, memberSpki: Bytes): Promise<Bytes> {
  return labelledData(ORG_RECOVERY_MEMBER_LABEL, userIdText(memberUserId, "the member's user id"), await sha256(memberSpki));
}

async function adminAad(adminUserId: number, orgSpkiHash: Bytes): Promise<Bytes> {
  return labelledData(ORG_RECOVERY_ADMIN_LABEL, userIdText(adminUserId, "the admin's user id"), orgSpkiHash);
}

/** A new organisation key pair (ECDH P-256); its private half is extractable only to be sealed to admins. */
export async function generateOrgRecoveryKeyPair(): Promise<OrgRecoveryKeyPair> {
  const pair = await crypto.subtle.generateKey(ECDH_P256, true, ['deriveBits']);
  return { privateKey: pair.privateKey, publicKeySpki: encodeBase64(new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey))) };
}

/**
 * The member's side: seals the member's extractable private key to the organisation public key.
 * `memberSpki` is the member's own public key (base64 SPKI), `memberUserId` their account id.
 */
export async function sealMemberRecoveryCopy(memberPrivateKey: CryptoKey, orgSpki: string, memberUserId: number, memberSpki: string): Promise<string> {
  const org = await orgPublicKey(orgSpki);
  const aad = await memberAad(memberUserId, parseExpectedSpki(memberSpki));
  const ephemeral = await crypto.subtle.generateKey(ECDH_P256, false, ['deriveBits']);
  const ephemeralSpki = new Uint8Array(await crypto.subtle.exportKey('spki', ephemeral.publicKey));
  const sealed = decodeBase64(await sealPrivateKeyCopy(memberPrivateKey, await memberWrappingKey(ephemeral.privateKey, org.key, org.hash, 'encrypt'), aad), 'copy');
  return encodeBase64(concatBytes([ephemeralSpki, sealed]));
}

/**
 * An admin's side: opens a member's copy with the organisation private key. The key inside must
 * be the key pair of `memberSpki` (the member's public key as the server keeps it): a copy of
 * another key pair, for another member or organisation key, or altered, is WRONG_KEY.
 */
export async function openMemberRecoveryCopy(
  copy: string,
  orgPrivateKey: CryptoKey,
  orgSpki: string,
  memberUserId: number,
  memberSpki: string,
  extractable = false,
): Promise<CryptoKey> {
  const bytes = decodeBase64(copy, "the member's recovery copy");
  if (bytes.length <= P256_SPKI_LENGTH + IV_LENGTH + TAG_LENGTH) throw new CryptoError('MALFORMED', "the member's recovery copy is too short");
  const ephemeral = await importApprovalPublicKey(encodeBase64(bytes.subarray(0, P256_SPKI_LENGTH)), "the copy's ephemeral key");
  const parsed = parsePrivateKeyCopy(encodeBase64(bytes.subarray(P256_SPKI_LENGTH)), "the member's recovery copy");
  const expected = parseExpectedSpki(memberSpki);
  const org = await orgPublicKey(orgSpki);
  const aad = await memberAad(memberUserId, expected);
  const key = await memberWrappingKey(orgPrivateKey, ephemeral.key, org.hash, 'decrypt');
  return openPrivateKeyCopy(parsed, key, aad, expected, extractable, "the member's recovery copy");
}

/** Seals the organisation private key (extractable) to an admin's account public key (RSA-OAEP-2048 SPKI). */
export async function sealAdminOrgKeyCopy(orgPrivateKey: CryptoKey, orgSpki: string, adminUserId: number, adminSpki: string): Promise<string> {
  const org = await orgPublicKey(orgSpki);
  const aad = await adminAad(adminUserId, org.hash);
  const adminKey = await importPublicKeySpki(adminSpki);
  const k = randomBytes(CONTENT_KEY_LENGTH);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', orgPrivateKey));
  try {
    const contentKey = await crypto.subtle.importKey('raw', k, { name: 'AES-GCM' }, false, ['encrypt']);
    const iv = randomBytes(IV_LENGTH);
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, contentKey, pkcs8));
    const wrapped = new Uint8Array(await crypto.subtle.encrypt(RSA_ALGORITHM, adminKey, k));
    return encodeBase64(concatBytes([wrapped, iv, sealed]));
  } finally {
    pkcs8.fill(0);
    k.fill(0);
  }
}

function wrongKey(what: string, cause: unknown): CryptoError {
  return new CryptoError('WRONG_KEY', `${what} does not open with this key (another key, binding, or altered)`, { cause });
}

/** The public SPKI of an extractable ECDH P-256 private key (its JWK carries x and y). */
async function publicSpkiOfEcdhPrivateKey(privateKey: CryptoKey): Promise<Bytes> {
  const jwk = await crypto.subtle.exportKey('jwk', privateKey);
  const publicKey = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, ext: true }, ECDH_P256, true, []);
  return new Uint8Array(await crypto.subtle.exportKey('spki', publicKey));
}

/**
 * An admin opens their copy of the organisation private key with their account private key
 * (RSA-OAEP, 'decrypt'). The key inside must be the one of `orgSpki`: anyone may seal some key to
 * an admin's public key (the server too), so a key of another pair is WRONG_KEY.
 */
export async function openAdminOrgKeyCopy(copy: string, adminPrivateKey: CryptoKey, adminUserId: number, orgSpki: string, extractable = false): Promise<CryptoKey> {
  const what = "the admin's copy of the organisation key";
  const bytes = decodeBase64(copy, what);
  if (bytes.length <= RSA_WRAPPED_LENGTH + IV_LENGTH + TAG_LENGTH) throw new CryptoError('MALFORMED', `${what} is too short`);
  const org = await orgPublicKey(orgSpki);
  const orgSpkiBytes = decodeBase64(orgSpki, "the organisation's public key");
  const aad = await adminAad(adminUserId, org.hash);
  let k: Bytes | undefined;
  let pkcs8: Bytes | undefined;
  try {
    try {
      k = new Uint8Array(await crypto.subtle.decrypt(RSA_ALGORITHM, adminPrivateKey, bytes.subarray(0, RSA_WRAPPED_LENGTH)));
    } catch (error) {
      if (isAuthenticationFailure(error)) throw wrongKey(what, error);
      throw error;
    }
    if (k.length !== CONTENT_KEY_LENGTH) throw new CryptoError('WRONG_KEY', `${what} holds a content key of the wrong length`);
    const contentKey = await crypto.subtle.importKey('raw', k, { name: 'AES-GCM' }, false, ['decrypt']);
    const iv = bytes.subarray(RSA_WRAPPED_LENGTH, RSA_WRAPPED_LENGTH + IV_LENGTH);
    try {
      pkcs8 = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: aad }, contentKey, bytes.subarray(RSA_WRAPPED_LENGTH + IV_LENGTH)));
    } catch (error) {
      if (isAuthenticationFailure(error)) throw wrongKey(what, error);
      throw error;
    }
    let checked: CryptoKey;
    try {
      checked = await crypto.subtle.importKey('pkcs8', pkcs8, ECDH_P256, true, ['deriveBits']);
    } catch (error) {
      throw new CryptoError('WRONG_KEY', `${what} does not hold an ECDH P-256 private key`, { cause: error });
    }
    const actual = await publicSpkiOfEcdhPrivateKey(checked);
    if (actual.length !== orgSpkiBytes.length || actual.some((byte, i) => byte !== orgSpkiBytes[i])) {
      throw new CryptoError('WRONG_KEY', `${what} holds another key than the organisation's public key`);
    }
    return extractable ? checked : await crypto.subtle.importKey('pkcs8', pkcs8, ECDH_P256, false, ['deriveBits']);
  } finally {
    k?.fill(0);
    pkcs8?.fill(0);
  }
}
