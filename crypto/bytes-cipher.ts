/**
 * Whole-buffer encryption and decryption of the record format. Used for small files (a few MiB,
 * already in memory) and by tests; large files go through the worker's streaming jobs, which use
 * the same record functions.
 */
import type { CipherBytes, PlainBytes } from './branded.ts';
import { concatBytes } from './bytes.ts';
import { encryptRecord } from './record-cipher.ts';
import { RecordDecryptor } from './record-decryptor.ts';
import { DEFAULT_RECORD_SIZE, encodeHeader, recordCount } from './record-format.ts';

export async function encryptBytes(
  key: CryptoKey,
  iv: Uint8Array,
  plaintext: Uint8Array<ArrayBuffer>,
  recordSize: number = DEFAULT_RECORD_SIZE,
): Promise<CipherBytes> {
  const header = encodeHeader(recordSize);
  const context = { key, iv, header };
  const count = recordCount(plaintext.byteLength, recordSize);
  const records = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      encryptRecord(context, index, index === count - 1, plaintext.subarray(index * recordSize, (index + 1) * recordSize)),
    ),
  );
  return concatBytes([header.bytes, ...records]) as CipherBytes;
}

export async function decryptBytes(key: CryptoKey, iv: Uint8Array, ciphertext: CipherBytes): Promise<PlainBytes> {
  const decryptor = new RecordDecryptor(key, iv);
  const parts = await decryptor.push(ciphertext);
  parts.push(...(await decryptor.finish()));
  return concatBytes(parts) as PlainBytes;
}
