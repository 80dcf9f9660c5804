// The size relation between a file and its encrypted form (docs/format.md, "Lengths and ranges"),
// as the upload server needs it. The server never sees plaintext, but it must know the exact
// ciphertext length of a declared plaintext size: to refuse a file over the limit before storing a
// byte (tus Upload-Length), and to check that what arrived is the whole encrypted file. Both
// directions use the format's default record size (256 KiB), which is what the upload page
// encrypts with: a file encrypted with another record size has another length and is refused with
// a clear error rather than stored unchecked.
import { cipherLength, plainLength } from '../crypto/index.ts';

export interface CiphertextSize {
  /** Exact ciphertext length for a plaintext length (monotonic, non-decreasing). */
  encryptedLength(plainLength: number): number;
  /** The plaintext length whose ciphertext is exactly `cipherLength` bytes, or null when none is. */
  plaintextLength(cipherLength: number): number | null;
}

export const recordFormatSize: CiphertextSize = {
  encryptedLength: (plainBytes) => cipherLength(plainBytes),
  plaintextLength: (cipherBytes) => plainLength(cipherBytes),
};
