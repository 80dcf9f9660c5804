// This browser's trust for an account (docs/format.md, the device copy): its device id and the
// non-extractable AES-GCM key that wraps its copy of the private key, kept in IndexedDB (idb-keyval)
// per account. IndexedDB stores the CryptoKey itself (structured clone keeps it non-extractable):
// no script, this page's included, can read its bytes.
import { del, get, set } from 'idb-keyval';
import { SSO_TEXTS as T } from '../../lib/userTexts.ts';

export interface StoredDevice {
  readonly id: string;
  readonly key: CryptoKey;
}

const keyOf = (userId: number) => `sealdrop-trusted-device:${userId}`;

function isStoredDevice(value: unknown): value is StoredDevice {
  const device = value as Partial<StoredDevice> | undefined;
  return typeof device?.id === 'string' && device.key instanceof CryptoKey;
}

export async function readDevice(userId: number): Promise<StoredDevice | null> {
  const value: unknown = await get(keyOf(userId));
  return isStoredDevice(value) ? value : null;
}

export function saveDevice(userId: number, device: StoredDevice): Promise<void> {
  return set(keyOf(userId), device);
}

export function forgetDevice(userId: number): Promise<void> {
  return del(keyOf(userId));
}

/**
 * What this browser calls itself in the devices list and approval requests ("Firefox on Linux"),
 * in the language of the moment it was trusted (the server keeps the name as given).
 */
export function thisDeviceName(userAgent: string = navigator.userAgent): string {
  const browser = /Firefox\//.test(userAgent) ? 'Firefox' : /Edg\//.test(userAgent) ? 'Edge' : /Chrom(e|ium)\//.test(userAgent) ? 'Chromium' : /Safari\//.test(userAgent) ? 'Safari' : 'Browser';
  const system = /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Windows/.test(userAgent) ? 'Windows' : /Mac OS X/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : '';
  return system ? T.deviceName(browser, system) : browser;
}
