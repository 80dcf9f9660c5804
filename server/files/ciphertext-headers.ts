// Headers every ciphertext download carries for the decrypting browser: the file's IV and its
// plaintext size (the service worker announces that size to the browser's download manager).
// The admin route adds x-encrypted-key; a download link never sends it.
import type { FileRecord } from '../db/repositories/index.ts';

export function ciphertextHeaders(file: FileRecord): Record<string, string> {
  return { 'x-encryption-iv': file.encryptionIv, 'x-file-size': String(file.fileSize) };
}
