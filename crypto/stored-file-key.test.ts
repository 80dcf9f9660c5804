import { describe, expect, it } from 'vitest';
import { exportRawFileKey, generateFileKey } from './file-key.ts';
import { CryptoError } from './errors.ts';
import { generateStorageKey, unwrapStoredFileKey, wrapFileKeyForStorage } from './stored-file-key.ts';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof CryptoError ? error.code : `not a CryptoError: ${String(error)}`;
  }
  return undefined;
}

describe('file keys stored for resuming', () => {
  it('the storage key can never be exported', async () => {
    const storageKey = await generateStorageKey();
    expect(storageKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', storageKey)).rejects.toThrow();
  });

  it('a wrapped key opens with the same storage key and entry, giving the same key bytes; the stored form is not the key', async () => {
    const storageKey = await generateStorageKey();
    const fileKey = await generateFileKey();
    const raw = await exportRawFileKey(fileKey);
    const stored = await wrapFileKeyForStorage(fileKey, storageKey, 'entry-1');
    expect(Buffer.from(stored.wrapped, 'base64').includes(Buffer.from(raw))).toBe(false);
    const back = await unwrapStoredFileKey(stored, storageKey, 'entry-1');
    expect(Buffer.from(await exportRawFileKey(back))).toEqual(Buffer.from(raw));
  });

  it('another storage key, another entry or an altered byte is INTEGRITY, never a key', async () => {
    const storageKey = await generateStorageKey();
    const stored = await wrapFileKeyForStorage(await generateFileKey(), storageKey, 'entry-1');
    expect(await codeOf(unwrapStoredFileKey(stored, await generateStorageKey(), 'entry-1'))).toBe('INTEGRITY');
    expect(await codeOf(unwrapStoredFileKey(stored, storageKey, 'entry-2'))).toBe('INTEGRITY');
    const bytes = Buffer.from(stored.wrapped, 'base64');
    bytes[5] = bytes[5]! ^ 1;
    expect(await codeOf(unwrapStoredFileKey({ ...stored, wrapped: bytes.toString('base64') as typeof stored.wrapped }, storageKey, 'entry-1'))).toBe('INTEGRITY');
    expect(await codeOf(unwrapStoredFileKey({ ...stored, wrapped: 'AAAA' as typeof stored.wrapped }, storageKey, 'entry-1'))).toBe('MALFORMED');
  });

  it('refuses an extractable storage key', async () => {
    const extractable = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['wrapKey', 'unwrapKey']);
    expect(await codeOf(wrapFileKeyForStorage(await generateFileKey(), extractable, 'entry-1'))).toBe('MALFORMED');
  });
});
