// The encrypted record format's size relation (docs/format.md), as the upload server needs it:
// the exact ciphertext length of a plaintext of a given size, with the format's default record
// size (256 KiB), which is what the upload page encrypts with. A file encrypted with another record
// size has another length and is refused with a clear error rather than stored unchecked.
import { cipherLength } from '../crypto/index.ts';
import { ciphertextSize, type CiphertextSize } from './ciphertext-size.ts';

export const recordFormatSize: CiphertextSize = ciphertextSize((plainLength) => cipherLength(plainLength));
