/**
 * What both download paths (the service worker's, startDownload.ts, and direct to disk,
 * direct/saveToDisk.ts) do alike around their worker: the plan's entries, the failures a
 * skip-failed-files download collects, and the file keys sent from the crypto worker straight to
 * the download's worker, never through this thread.
 */
import { sharedCryptoPool } from '../../app/cryptoPool.ts';
import { DOWNLOAD_MESSAGES, DownloadError, type PlanEntry } from '../../../workers/index.ts';
import type { DecryptedDownloadSource, FailedZipFile, ZipDownloadOptions } from './types.ts';

const DEFAULT_REQUIRED_HEADERS = ['x-encryption-iv'] as const;
/** From posting a plan until the download's worker has the keys. */
export const READY_TIMEOUT_MS = 20_000;

export function abortedDownload(): DownloadError {
  return new DownloadError('ABORTED', DOWNLOAD_MESSAGES.aborted);
}

export function planEntries(sources: readonly DecryptedDownloadSource[]): PlanEntry[] {
  return sources.map((source) => ({
    url: source.url,
    name: source.name,
    plainSize: source.plainSize,
    iv: source.iv,
    keyId: source.key.id,
    requiredHeaders: [...(source.requiredHeaders ?? DEFAULT_REQUIRED_HEADERS)],
  }));
}

/** The files a download left out (with options.onFileFailed), and the callback that records them. */
export function failureCollector(options: ZipDownloadOptions): { failed: FailedZipFile[]; onFileFailed: ((entry: FailedZipFile) => void) | undefined } {
  const failed: FailedZipFile[] = [];
  const onFileFailed = options.onFileFailed
    ? (entry: FailedZipFile) => {
        failed.push(entry);
        options.onFileFailed?.(entry);
      }
    : undefined;
  return { failed, onFileFailed };
}

/**
 * Sends the sources' file keys (each once) over `keyPort` to the download's worker and then waits
 * for `outcome`. When the keys cannot be sent, the worker reports KEY_UNAVAILABLE on its status
 * port; the error thrown here says why.
 */
export async function sendKeysThenAwait(sources: readonly DecryptedDownloadSource[], keyPort: MessagePort, outcome: Promise<number>): Promise<number> {
  const uniqueKeys = [...new Map(sources.map((source) => [source.key.id, source.key])).values()];
  try {
    await sharedCryptoPool().sendFileKeys(uniqueKeys, keyPort);
  } catch (error) {
    keyPort.close();
    void outcome.catch(() => undefined);
    throw error;
  }
  return outcome;
}
