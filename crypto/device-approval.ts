/**
 * A new device given the private key by a device that has it (docs/format.md, "The private key
 * after a single sign-on"). The requester makes an ECDH P-256 key pair for one request (private
 * half non-extractable, kept in its worker); the approver makes one of its own and seals the PKCS8:
 *
 *   shared      = ECDH(approver's private, requester's public)      -- 32 bytes, the x coordinate
 *   h           = SHA-256(requester's SPKI)
 *   wrappingKey = HKDF-SHA256(ikm = shared, salt = h, info = DEVICE_APPROVAL_LABEL)
 *   copy        = base64(iv (12) || AES-256-GCM(wrappingKey, iv, PKCS8, aad = DEVICE_APPROVAL_LABEL || 0x00 || request id || 0x00 || h))
 *
 * The requester opens it with ECDH(its private, approver's public). The server relays both public
 * keys; a swapped requester key is what the fingerprint phrase (approval-phrase.ts) shows people,
 * and a key pair the server planted is what the expected-SPKI check refuses.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import type { Bytes } from './bytes.ts';
import { utf8 } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { boundText, labelledData, openPrivateKeyCopy, parseExpectedSpki, parsePrivateKeyCopy, sealPrivateKeyCopy } from './private-key-copy.ts';

/** The purpose label of the approval's key derivation and of its additional data. */
export const DEVICE_APPROVAL_LABEL = 'sealdrop/device-approval/v1';

const ECDH_P256: EcKeyImportParams = { name: 'ECDH', namedCurve: 'P-256' };

/** The requester's key pair of one request: the private half non-extractable, the public half as base64 SPKI. */
export interface ApprovalRequestKeys {
  readonly privateKey: CryptoKey;
  readonly publicKeySpki: string;
}

/** What the approver sends back through the server. */
export interface DeviceApproval {
  readonly approverPublicKeySpki: string;
  readonly copy: string;
}

async function newEcdhKeyPair(): Promise<{ privateKey: CryptoKey; spki: Bytes }> {
  const pair = await crypto.subtle.generateKey(ECDH_P256, false, ['deriveBits']);
  return { privateKey: pair.privateKey, spki: new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey)) };
}

/** An ECDH P-256 public key from base64 SPKI; anything else is MALFORMED. */
export async function importApprovalPublicKey(spki: string, what: string): Promise<{ key: CryptoKey; spki: Bytes }> {
  const bytes = decodeBase64(spki, what);
  try {
    return { key: await crypto.subtle.importKey('spki', bytes, ECDH_P256, true, []), spki: bytes };
  } catch (error) {
    throw new CryptoError('MALFORMED', `${what} is not an ECDH P-256 public key`, { cause: error });
  }
}

/**
 * An AES-256-GCM key both sides of an ECDH P-256 agreement derive alike: HKDF-SHA256 over the
 * shared x coordinate (zeroed after), with `salt` and the purpose `label` as info. Device
 * approvals and the organisation recovery copies use it, each with its own label.
 */
export async function agreedWrappingKey(ownPrivateKey: CryptoKey, otherPublicKey: CryptoKey, salt: Bytes, label: string, usage: KeyUsage): Promise<CryptoKey> {
  const shared = new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: otherPublicKey }, ownPrivateKey, 256));
  try {
    const ikm = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
    return await crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: utf8(label) }, ikm, { name: 'AES-GCM', length: 256 }, false, [usage]);
  } finally {
    shared.fill(0);
  }
}

const wrappingKey = (ownPrivateKey: CryptoKey, otherPublicKey: CryptoKey, requesterSpkiHash: Bytes, usage: KeyUsage) =>
  agreedWrappingKey(ownPrivateKey, otherPublicKey, requesterSpkiHash, DEVICE_APPROVAL_LABEL, usage);

const sha256 = async (bytes: Bytes): Promise<Bytes> => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
const additionalData = (requestId: string, requesterSpkiHash: Bytes) => labelledData(DEVICE_APPROVAL_LABEL, boundText(requestId, 'a request id'), requesterSpkiHash);

/** The requester's key pair for one approval request. */
export async function generateApprovalRequestKeys(): Promise<ApprovalRequestKeys> {
  const pair = await newEcdhKeyPair();
  return { privateKey: pair.privateKey, publicKeySpki: encodeBase64(pair.spki) };
}

/** The approver's side: seals an extractable private key to the requester's public key for request `requestId`. */
export async function sealDeviceApproval(privateKey: CryptoKey, requestId: string, requesterSpki: string): Promise<DeviceApproval> {
  const requester = await importApprovalPublicKey(requesterSpki, "the requester's public key");
  const hash = await sha256(requester.spki);
  const aad = additionalData(requestId, hash);
  const approver = await newEcdhKeyPair();
  const copy = await sealPrivateKeyCopy(privateKey, await wrappingKey(approver.privateKey, requester.key, hash, 'encrypt'), aad);
  return { approverPublicKeySpki: encodeBase64(approver.spki), copy };
}

/**
 * The requester's side: opens the approver's copy. Another request id, another requester key, a
 * swapped approver key, altered data, or a copy of another key pair than `expectedSpki` (the
 * account's base64 SPKI) are WRONG_KEY; a wrong shape is MALFORMED.
 */
export async function openDeviceApproval(
  request: ApprovalRequestKeys,
  requestId: string,
  approverSpki: string,
  copy: string,
  expectedSpki: string,
  extractable = false,
): Promise<CryptoKey> {
  const parsed = parsePrivateKeyCopy(copy, 'the approved copy of the private key');
  const expected = parseExpectedSpki(expectedSpki);
  const approver = await importApprovalPublicKey(approverSpki, "the approver's public key");
  const hash = await sha256(decodeBase64(request.publicKeySpki, "the request's public key"));
  const aad = additionalData(requestId, hash);
  const key = await wrappingKey(request.privateKey, approver.key, hash, 'decrypt');
  return openPrivateKeyCopy(parsed, key, aad, expected, extractable, 'the approved copy of the private key');
}
