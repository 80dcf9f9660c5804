/**
 * Keys of team folders (docs/team-folders.md, "Keys"). A key is named in the signed member list
 * by its *key hash*: the lower-case hex SHA-256 of its SPKI DER, all 64 digits. That is not the
 * fingerprint people compare (key-fingerprint.ts: 20 bytes in groups, for reading aloud); the
 * key hash is for machines and is never shortened.
 *
 * The account key pair is one RSA key; signing a manifest needs it imported for RSA-PSS beside its
 * RSA-OAEP import (docs/team-folders.md, "Signature"). Both imports are made once, when the key is
 * unlocked inside the worker, from a short-lived extractable copy: neither kept key is extractable.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import type { PublicKeySpki } from './branded.ts';
import { toHex } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { importPublicKeySpki, RSA_ALGORITHM, RSA_MODULUS_BITS } from './key-pair.ts';

export const RSA_PSS_ALGORITHM: RsaHashedImportParams = { name: 'RSA-PSS', hash: 'SHA-256' };
const PUBLIC_EXPONENT = Uint8Array.of(0x01, 0x00, 0x01);
const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** Lower-case hex SHA-256 of SPKI DER bytes. */
export async function publicKeyHash(spkiDer: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', spkiDer as BufferSource)));
}

/** The key hash of a base64 SPKI (MALFORMED when it is not base64). */
export function publicKeyHashOfSpki(spki: string): Promise<string> {
  return publicKeyHash(decodeBase64(spki, 'public key'));
}

export function isKeyHash(value: unknown): value is string {
  return typeof value === 'string' && KEY_HASH_PATTERN.test(value);
}

/**
 * The account's private key as the worker keeps it: RSA-OAEP for unwrapping, RSA-PSS for signing
 * manifests, and its own public key (SPKI) with that key's hash, which is how the account is found
 * in a member list.
 */
export interface AccountKeys {
  readonly decryptKey: CryptoKey;
  readonly signingKey: CryptoKey;
  readonly publicKeySpki: PublicKeySpki;
  readonly keyHash: string;
}

/** The SPKI of an RSA private key's public half (n and e are part of every RSA private key). */
export async function publicKeySpkiOfPrivateKey(extractablePrivateKey: CryptoKey): Promise<PublicKeySpki> {
  const jwk = await crypto.subtle.exportKey('jwk', extractablePrivateKey);
  const publicKey = await crypto.subtle.importKey('jwk', { kty: 'RSA', n: jwk.n, e: jwk.e, ext: true }, RSA_ALGORITHM, true, ['encrypt']);
  return encodeBase64(new Uint8Array(await crypto.subtle.exportKey('spki', publicKey))) as string as PublicKeySpki;
}

/**
 * From an extractable account private key (just unwrapped): the two non-extractable imports and
 * the public half. The PKCS8 bytes are zeroed; the caller drops the extractable key.
 */
export async function accountKeysFrom(extractablePrivateKey: CryptoKey): Promise<AccountKeys> {
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', extractablePrivateKey));
  try {
    const [decryptKey, signingKey, publicKeySpki] = await Promise.all([
      crypto.subtle.importKey('pkcs8', pkcs8, RSA_ALGORITHM, false, ['unwrapKey', 'decrypt']),
      crypto.subtle.importKey('pkcs8', pkcs8, RSA_PSS_ALGORITHM, false, ['sign']),
      publicKeySpkiOfPrivateKey(extractablePrivateKey),
    ]);
    return { decryptKey, signingKey, publicKeySpki, keyHash: await publicKeyHashOfSpki(publicKeySpki) };
  } finally {
    pkcs8.fill(0);
  }
}

/** A folder's key pair of one epoch: RSA-OAEP-2048 like an account key; the private half is extractable so it can be sealed to members. */
export interface EpochKeyPair {
  readonly privateKey: CryptoKey;
  readonly publicKeySpki: PublicKeySpki;
  readonly keyHash: string;
}

export async function generateEpochKeyPair(): Promise<EpochKeyPair> {
  const pair = await crypto.subtle.generateKey(
    { ...RSA_ALGORITHM, modulusLength: RSA_MODULUS_BITS, publicExponent: PUBLIC_EXPONENT },
    true,
    ['wrapKey', 'unwrapKey', 'encrypt', 'decrypt'],
  );
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
  return { privateKey: pair.privateKey, publicKeySpki: encodeBase64(spki) as string as PublicKeySpki, keyHash: await publicKeyHash(spki) };
}

/** A member's or signer's public key as RSA-PSS for checking signatures; the same size and exponent rules as every account key. */
export async function importVerifyingKey(spki: string): Promise<CryptoKey> {
  await importPublicKeySpki(spki);
  try {
    return await crypto.subtle.importKey('spki', decodeBase64(spki, 'public key'), RSA_PSS_ALGORITHM, false, ['verify']);
  } catch (error) {
    throw new CryptoError('MALFORMED', 'public key cannot verify RSA-PSS signatures', { cause: error });
  }
}
