// Recovers one file of an export: opens its key (file-keys.ts) and decrypts its blob to disk with
// every check of decrypt-to-disk.ts (the manifest gives the size and the SHA-256).
import { strictBase64 } from '../crypto/index.ts';
import { checkedTarget, decryptToDisk, type DecryptOptions, type ExpectedFile } from './decrypt-to-disk.ts';
import type { ExportReader } from './export-reader.ts';
import type { ExportKeyOpener } from './file-keys.ts';
import type { ExportedFile } from './manifest.ts';

export type RecoverFileOptions = DecryptOptions;

/** Writes the file to its target path, or throws FileRecoveryError / OfflineCryptoError (or AbortError). */
export async function recoverFile(openKey: ExportKeyOpener, file: ExportedFile, reader: ExportReader, options: RecoverFileOptions): Promise<void> {
  const expected: ExpectedFile = {
    source: file.blob,
    describedBy: 'the manifest',
    directories: file.directories,
    name: file.name,
    size: file.size,
    sha256: file.sha256,
  };
  // An existing output is refused before the key is even unwrapped.
  await checkedTarget(expected, options);
  const fileKey = openKey(file);
  try {
    await decryptToDisk(fileKey, strictBase64(file.iv, 'iv'), expected, () => reader.openBlob(file.blob), options);
  } finally {
    fileKey.fill(0);
  }
}
