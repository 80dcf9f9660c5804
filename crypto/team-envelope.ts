/**
 * Envelope v1 (docs/team-folders.md, "Envelope (version 1)"): one epoch's private key sealed to one
 * member's account public key.
 *
 *   aad      = UTF-8("sealdrop folder key v1:" || folder_id || ":" || epoch || ":" || memberKeyHash)
 *   sealed   = AES-256-GCM(k, n, aad, PKCS8 of the epoch private key)   (ciphertext || tag)
 *   wrapped  = RSA-OAEP-SHA256(member account public key, k)            (256 bytes)
 *   envelope = base64(0x01 || wrapped || n || sealed)
 *
 * Anyone holding a member's public key can seal *some* key to it, the server included; the aad
 * only binds an envelope to its folder, epoch and member. What makes an opened key the folder's is
 * the last step of opening: its public half must hash to the epoch's key hash in the verified
 * manifest. Every failure of opening is INTEGRITY: a member's browser never uses a key it cannot
 * tie to the signed list.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import { concatBytes, randomBytes, utf8 } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { importPublicKeySpki, RSA_ALGORITHM, RSA_MODULUS_BITS } from './key-pair.ts';
import { publicKeyHashOfSpki, publicKeySpkiOfPrivateKey } from './team-keys.ts';

export const TEAM_ENVELOPE_VERSION = 1;
export const TEAM_ENVELOPE_AAD_PREFIX = 'sealdrop folder key v1:';
const CONTENT_KEY_LENGTH = 32;
const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;
const WRAPPED_LENGTH = RSA_MODULUS_BITS / 8;
const HEADER_LENGTH = 1 + WRAPPED_LENGTH + NONCE_LENGTH;

export interface EnvelopeBinding {
  readonly folderId: number;
  readonly epoch: number;
  /** The member's account key hash (lower-case hex SHA-256 of its SPKI DER). */
  readonly memberKeyHash: string;
}

export function envelopeAad({ folderId, epoch, memberKeyHash }: EnvelopeBinding): Uint8Array<ArrayBuffer> {
  if (!Number.isSafeInteger(folderId) || folderId < 1 || !Number.isSafeInteger(epoch) || epoch < 1) {
    throw new CryptoError('MALFORMED', 'an envelope is bound to a positive folder id and epoch');
  }
  return utf8(`${TEAM_ENVELOPE_AAD_PREFIX}${folderId}:${epoch}:${memberKeyHash}`);
}

/** Seals `epochPrivateKey` (extractable) to the member whose account public key is `memberPublicKeySpki`. */
export async function sealEnvelope(
  epochPrivateKey: CryptoKey,
  target: { readonly folderId: number; readonly epoch: number; readonly memberPublicKeySpki: string },
): Promise<string> {
  const memberKey = await importPublicKeySpki(target.memberPublicKeySpki);
  const aad = envelopeAad({ folderId: target.folderId, epoch: target.epoch, memberKeyHash: await publicKeyHashOfSpki(target.memberPublicKeySpki) });
  const k = randomBytes(CONTENT_KEY_LENGTH);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', epochPrivateKey));
  try {
    const contentKey = await crypto.subtle.importKey('raw', k, { name: 'AES-GCM' }, false, ['encrypt']);
    const nonce = randomBytes(NONCE_LENGTH);
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: aad }, contentKey, pkcs8));
    const wrapped = new Uint8Array(await crypto.subtle.encrypt(RSA_ALGORITHM, memberKey, k));
    return encodeBase64(concatBytes([Uint8Array.of(TEAM_ENVELOPE_VERSION), wrapped, nonce, sealed]));
  } finally {
    pkcs8.fill(0);
    k.fill(0);
  }
}

function refused(message: string, cause?: unknown): CryptoError {
  return new CryptoError('INTEGRITY', `folder key envelope refused: ${message}`, cause === undefined ? undefined : { cause });
}

/**
 * Opens an envelope with the member's account private key (RSA-OAEP, 'decrypt' usage) and returns
 * the epoch private key, extractable so that it can be sealed again to a member added later; it
 * never leaves the worker. `epochKeyHash` is the epoch's key hash from the *verified* manifest.
 */
export async function openEnvelope(
  envelope: string,
  memberPrivateKey: CryptoKey,
  binding: EnvelopeBinding & { readonly epochKeyHash: string },
): Promise<CryptoKey> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = decodeBase64(envelope, 'envelope');
  } catch (error) {
    throw refused('not base64', error);
  }
  if (bytes.length < HEADER_LENGTH + TAG_LENGTH + 1) throw refused('too short');
  if (bytes[0] !== TEAM_ENVELOPE_VERSION) throw refused(`unknown version ${bytes[0]}`);
  const wrapped = bytes.subarray(1, 1 + WRAPPED_LENGTH);
  const nonce = bytes.subarray(1 + WRAPPED_LENGTH, HEADER_LENGTH);
  const sealed = bytes.subarray(HEADER_LENGTH);
  let k: Uint8Array<ArrayBuffer> | undefined;
  let pkcs8: Uint8Array<ArrayBuffer> | undefined;
  try {
    try {
      k = new Uint8Array(await crypto.subtle.decrypt(RSA_ALGORITHM, memberPrivateKey, wrapped));
    } catch (error) {
      throw refused('not sealed to this account key', error);
    }
    if (k.length !== CONTENT_KEY_LENGTH) throw refused('wrong content key length');
    const contentKey = await crypto.subtle.importKey('raw', k, { name: 'AES-GCM' }, false, ['decrypt']);
    try {
      pkcs8 = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce, additionalData: envelopeAad(binding) }, contentKey, sealed));
    } catch (error) {
      throw refused('sealed for another folder, epoch or member, or altered', error);
    }
    let epochKey: CryptoKey;
    try {
      epochKey = await crypto.subtle.importKey('pkcs8', pkcs8, RSA_ALGORITHM, true, ['unwrapKey', 'decrypt']);
    } catch (error) {
      throw refused('does not hold an RSA private key', error);
    }
    const keyHash = await publicKeyHashOfSpki(await publicKeySpkiOfPrivateKey(epochKey));
    if (keyHash !== binding.epochKeyHash) throw refused(`the key inside is not epoch ${binding.epoch}'s key of the signed member list`);
    return epochKey;
  } finally {
    k?.fill(0);
    pkcs8?.fill(0);
  }
}
