/**
 * The administrator's RSA-OAEP key pair (spec section 9: 2048 bits, SHA-256, e = 65537; public key
 * exported as SPKI, private key as PKCS8). File keys are wrapped with the public key.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import type { PublicKeySpki } from './branded.ts';
import { CryptoError } from './errors.ts';

export const RSA_ALGORITHM: RsaHashedImportParams = { name: 'RSA-OAEP', hash: 'SHA-256' };
export const RSA_MODULUS_BITS = 2048;
const PUBLIC_EXPONENT = Uint8Array.of(0x01, 0x00, 0x01);

export async function generateKeyPair(): Promise<CryptoKeyPair> {
  // Extractable: the private key must be exported (PKCS8) once to be wrapped with the password.
  return crypto.subtle.generateKey(
    { ...RSA_ALGORITHM, modulusLength: RSA_MODULUS_BITS, publicExponent: PUBLIC_EXPONENT },
    true,
    ['wrapKey', 'unwrapKey', 'encrypt', 'decrypt'],
  );
}

export async function exportPublicKeySpki(publicKey: CryptoKey): Promise<PublicKeySpki> {
  return encodeBase64(new Uint8Array(await crypto.subtle.exportKey('spki', publicKey))) as string as PublicKeySpki;
}

/** Imports a recipient public key; anything but an RSA-OAEP 2048 SPKI is MALFORMED. */
export async function importPublicKeySpki(spki: string): Promise<CryptoKey> {
  const bytes = decodeBase64(spki, 'public key');
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey('spki', bytes, RSA_ALGORITHM, true, ['wrapKey', 'encrypt']);
  } catch (error) {
    throw new CryptoError('MALFORMED', 'public key is not a valid SPKI RSA key', { cause: error });
  }
  // Spelled out rather than RsaHashedKeyAlgorithm, which the worker libraries of TypeScript lack.
  const algorithm = key.algorithm as KeyAlgorithm & { modulusLength: number; publicExponent: Uint8Array };
  const exponent = Array.from(algorithm.publicExponent).join(',');
  if (algorithm.modulusLength !== RSA_MODULUS_BITS || exponent !== '1,0,1') {
    throw new CryptoError('MALFORMED', `public key must be RSA-${RSA_MODULUS_BITS} with e = 65537`);
  }
  return key;
}

/** PKCS8 to a private key; `extractable` only while re-wrapping it under a new password. */
export async function importPrivateKeyPkcs8(pkcs8: Uint8Array<ArrayBuffer>, extractable: boolean): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey('pkcs8', pkcs8, RSA_ALGORITHM, extractable, ['unwrapKey', 'decrypt']);
  } catch (error) {
    throw new CryptoError('MALFORMED', 'private key is not a valid PKCS8 RSA key', { cause: error });
  }
}
