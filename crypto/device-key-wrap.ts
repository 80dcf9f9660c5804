/**
 * The trusted device's copy of the private key (docs/format.md, "The private key after a single
 * sign-on"): sealed under a key this browser made for itself, AES-256-GCM and never extractable
 * (the page keeps the CryptoKey in IndexedDB, whose structured clone keeps it so), bound to the
 * device id the server knows the device by:
 *
 *   copy = base64(iv (12) || AES-256-GCM(deviceKey, iv, PKCS8, aad = DEVICE_WRAP_AAD_LABEL || 0x00 || device id))
 *
 * A key that could be exported is refused (MALFORMED): whoever read its bytes could open the copy
 * the server keeps.
 */
import { CryptoError } from './errors.ts';
import { boundText, labelledData, openPrivateKeyCopy, parseExpectedSpki, parsePrivateKeyCopy, sealPrivateKeyCopy } from './private-key-copy.ts';

export const DEVICE_WRAP_AAD_LABEL = 'sealdrop/device-private-key/v1';

const DEVICE_KEY_ALGORITHM: AesKeyGenParams = { name: 'AES-GCM', length: 256 };

/** A new device key: AES-256-GCM, extractable = false. */
export function generateDeviceKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey(DEVICE_KEY_ALGORITHM, false, ['encrypt', 'decrypt']);
}

function assertDeviceKey(key: CryptoKey, usage: KeyUsage): void {
  const algorithm = key instanceof CryptoKey ? (key.algorithm as KeyAlgorithm & { length?: number }) : undefined;
  if (!algorithm || key.extractable || algorithm.name !== 'AES-GCM' || algorithm.length !== 256 || !key.usages.includes(usage)) {
    throw new CryptoError('MALFORMED', `the device key must be a non-extractable AES-256-GCM key that can ${usage}`);
  }
}

const additionalData = (deviceId: string) => labelledData(DEVICE_WRAP_AAD_LABEL, boundText(deviceId, 'a device id'));

/** Seals an extractable private key under this device's key for `deviceId`. */
export async function wrapPrivateKeyForDevice(privateKey: CryptoKey, deviceKey: CryptoKey, deviceId: string): Promise<string> {
  assertDeviceKey(deviceKey, 'encrypt');
  return sealPrivateKeyCopy(privateKey, deviceKey, additionalData(deviceId));
}

/**
 * Opens this device's copy. Another device's key or id, altered data, or a copy of another key
 * pair than `expectedSpki` (the account's base64 SPKI) are WRONG_KEY; a wrong shape is MALFORMED.
 */
export async function unwrapDevicePrivateKey(
  copy: string,
  deviceKey: CryptoKey,
  deviceId: string,
  expectedSpki: string,
  extractable = false,
): Promise<CryptoKey> {
  const parsed = parsePrivateKeyCopy(copy, "the device's copy of the private key");
  const expected = parseExpectedSpki(expectedSpki);
  assertDeviceKey(deviceKey, 'decrypt');
  return openPrivateKeyCopy(parsed, deviceKey, additionalData(deviceId), expected, extractable, "the device's copy of the private key");
}
