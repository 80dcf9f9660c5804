// The size relation between a file and its encrypted form. The server never sees plaintext, but it
// must know the exact ciphertext length of a declared plaintext size: to refuse a file over the
// limit before storing a byte (tus Upload-Length), and to check that what arrived is the whole
// encrypted file. The relation is the record format's (docs/format.md); it is injected so this
// module stays free of the format's details.
export type EncryptedLength = (plainLength: number) => number;

export interface CiphertextSize {
  /** Exact ciphertext length for a plaintext length (monotonic, non-decreasing). */
  encryptedLength: EncryptedLength;
  /** The plaintext length whose ciphertext is exactly `cipherLength` bytes, or null when none is. */
  plaintextLength(cipherLength: number): number | null;
}

/**
 * Builds both directions from the format's encryptedLength. The inverse is a binary search (the
 * function is monotonic and a ciphertext is never shorter than its plaintext), so it is exact for
 * any record layout without restating the format here.
 */
export function ciphertextSize(encryptedLength: EncryptedLength): CiphertextSize {
  return {
    encryptedLength,
    plaintextLength(cipherLength) {
      if (!Number.isSafeInteger(cipherLength) || cipherLength < 0) return null;
      let low = 0;
      let high = cipherLength;
      while (low < high) {
        const middle = Math.floor((low + high) / 2);
        if (encryptedLength(middle) < cipherLength) low = middle + 1;
        else high = middle;
      }
      return encryptedLength(low) === cipherLength ? low : null;
    },
  };
}
