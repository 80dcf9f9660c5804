/**
 * Several files as one streaming ZIP (stored entries, CRC-32 as the bytes pass, ZIP64 once an
 * entry or an offset passes 4 GiB). Files are opened one after the other as the archive reaches
 * them, so only one file is in flight and memory does not grow with the archive. The archive is
 * client-zip's layout written by zipWriter.ts (a WebAssembly CRC-32: see there why), so its length
 * is client-zip's `predictLength`.
 */
import { predictLength } from 'client-zip';
import type { PlanEntry } from './protocol.ts';
import { isDownloadError } from './downloadErrors.ts';
import { openDecryptedFile, primed, type DecryptedFileOptions } from './decryptedFile.ts';
import { writeZip } from './zipWriter.ts';

export interface ZipStreamOptions extends DecryptedFileOptions {
  /** Skip files that fail before their first byte (see DownloadPlan.skipFailedFiles). */
  readonly skipFailedFiles: boolean;
  onFileFailed?(entry: PlanEntry, error: unknown): void;
}

/** The archive's exact length when every file is written (client-zip's own arithmetic). */
export function zipLength(entries: readonly PlanEntry[]): number {
  return Number(predictLength(entries.map((entry) => ({ name: entry.name, size: entry.plainSize }))));
}

export function createZipStream(entries: readonly PlanEntry[], options: ZipStreamOptions): ReadableStream<Uint8Array> {
  const lastModified = new Date();
  async function* files() {
    for (const entry of entries) {
      let input: ReadableStream<Uint8Array>;
      try {
        const stream = await openDecryptedFile(entry, options);
        input = options.skipFailedFiles ? await primed(stream) : stream;
      } catch (error) {
        if (!options.skipFailedFiles || !isDownloadError(error) || error.code === 'ABORTED') throw error;
        options.onFileFailed?.(entry, error);
        continue;
      }
      yield { name: entry.name, lastModified, input };
    }
  }
  return writeZip(files());
}
