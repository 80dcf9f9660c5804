/**
 * The record format over a whole buffer: a plaintext already in memory in, the whole ciphertext
 * (header, then every record) in one buffer out, and back. The upload's batch lane encrypts each
 * small file this way (workers/whole-file-encryption.ts); large files go through the worker's
 * streaming job (workers/encryption-job.ts), which uses the same record functions.
 */
import type { CipherBytes, PlainBytes } from './branded.ts';
import { concatBytes } from './bytes.ts';
import { encryptRecord } from './record-cipher.ts';
import { RecordDecryptor } from './record-decryptor.ts';
import { DEFAULT_RECORD_SIZE, encodeHeader, encryptedLength, recordCount, recordSpan } from './record-format.ts';

/**
 * Records are encrypted concurrently, each straight into its place in the output. Every record's
 * encryption starts before the promise is returned and WebCrypto copies its input when a call
 * starts, so the caller may go on reading `plaintext` (hash it) while the records are encrypted.
 */
export async function encryptBytes(
  key: CryptoKey,
  iv: Uint8Array,
  plaintext: Uint8Array<ArrayBuffer>,
  recordSize: number = DEFAULT_RECORD_SIZE,
): Promise<CipherBytes> {
  const header = encodeHeader(recordSize);
  const context = { key, iv, header };
  const out = new Uint8Array(encryptedLength(plaintext.byteLength, recordSize));
  out.set(header.bytes, 0);
  const records = Array.from({ length: recordCount(plaintext.byteLength, recordSize) }, async (_, index) => {
    const span = recordSpan(index, plaintext.byteLength, recordSize);
    out.set(await encryptRecord(context, index, span.last, plaintext.subarray(span.plainStart, span.plainEnd)), span.cipherStart);
  });
  await Promise.all(records);
  return out as CipherBytes;
}

export async function decryptBytes(key: CryptoKey, iv: Uint8Array, ciphertext: CipherBytes): Promise<PlainBytes> {
  const decryptor = new RecordDecryptor(key, iv);
  const parts = await decryptor.push(ciphertext);
  parts.push(...(await decryptor.finish()));
  return concatBytes(parts) as PlainBytes;
}
