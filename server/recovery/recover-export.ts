// Recovers every file of a manifest in turn. A file that fails is reported (by the caller, through
// onFailed) and skipped; only an interruption (AbortError) stops the run.
import type { ExportReader } from './export-reader.ts';
import type { ExportKeyOpener } from './file-keys.ts';
import type { Manifest, ManifestItem } from './manifest.ts';
import type { ProgressLine } from './progress.ts';
import { recoverFile } from './recover-file.ts';

export interface RecoverExportOptions {
  outputDir: string;
  force: boolean;
  signal: AbortSignal;
  progress: ProgressLine;
  onRecovered(item: ManifestItem, bytes: number): void;
  onFailed(item: ManifestItem, error: unknown): void;
}

export interface RecoveryTotals {
  files: number;
  recovered: number;
  bytes: number;
}

export async function recoverExport(openKey: ExportKeyOpener, reader: ExportReader, manifest: Manifest, options: RecoverExportOptions): Promise<RecoveryTotals> {
  const totals: RecoveryTotals = { files: manifest.items.length, recovered: 0, bytes: 0 };
  for (const item of manifest.items) {
    options.signal.throwIfAborted();
    if (!item.ok) {
      options.onFailed(item, item.error);
      continue;
    }
    options.progress.start(item.displayPath, item.file.size);
    try {
      await recoverFile(openKey, item.file, reader, {
        outputDir: options.outputDir,
        force: options.force,
        signal: options.signal,
        onProgress: (bytes) => options.progress.update(bytes),
      });
      options.progress.finish();
      totals.recovered++;
      totals.bytes += item.file.size;
      options.onRecovered(item, item.file.size);
    } catch (error) {
      options.progress.finish();
      if (options.signal.aborted) throw options.signal.reason;
      options.onFailed(item, error);
    }
  }
  return totals;
}
