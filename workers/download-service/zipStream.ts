/**
 * Several files as one streaming ZIP (stored entries, CRC-32 as the bytes pass, ZIP64 once an
 * entry or an offset passes 4 GiB). Files are opened one after the other as the archive reaches
 * them, so only one file is in flight and memory does not grow with the archive. The archive is
 * client-zip's layout written by zipWriter.ts (a WebAssembly CRC-32: see there why), so its length
 * is client-zip's `predictLength`. Entry names are made safe and unique here (treePaths.ts), whatever
 * the plan says: no entry can climb out of the folder it is extracted into, or carry control
 * characters. The page names entries by the same rules, so its names pass unchanged.
 */
import { predictLength } from 'client-zip';
import type { PlanEntry } from './protocol.ts';
import { isDownloadError } from './downloadErrors.ts';
import { openDecryptedFile, primed, type DecryptedFileOptions } from './decryptedFile.ts';
import { uniqueEntryPaths } from './treePaths.ts';
import { writeZip } from './zipWriter.ts';

export interface ZipStreamOptions extends DecryptedFileOptions {
  /** Skip files that fail before their first byte (see DownloadPlan.skipFailedFiles). */
  readonly skipFailedFiles: boolean;
  onFileFailed?(entry: PlanEntry, error: unknown): void;
}

/** The archive's exact length when every file is written (client-zip's own arithmetic). */
export function zipLength(entries: readonly PlanEntry[]): number {
  const names = uniqueEntryPaths(entries.map((entry) => entry.name));
  return Number(predictLength(entries.map((entry, index) => ({ name: names[index]!, size: entry.plainSize }))));
}

export function createZipStream(entries: readonly PlanEntry[], options: ZipStreamOptions): ReadableStream<Uint8Array> {
  const lastModified = new Date();
  const names = uniqueEntryPaths(entries.map((entry) => entry.name));
  async function* files() {
    for (const [index, entry] of entries.entries()) {
      let input: ReadableStream<Uint8Array>;
      try {
        const stream = await openDecryptedFile(entry, options);
        input = options.skipFailedFiles ? await primed(stream) : stream;
      } catch (error) {
        if (!options.skipFailedFiles || !isDownloadError(error) || error.code === 'ABORTED') throw error;
        options.onFileFailed?.(entry, error);
        continue;
      }
      yield { name: names[index]!, lastModified, input };
    }
  }
  return writeZip(files());
}
