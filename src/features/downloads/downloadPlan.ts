/**
 * What a download does around its worker, wherever it runs: the plan's entries, the failures a
 * batch that skips failed files collects, and the file keys sent from the crypto worker straight
 * to the download's worker, never through this thread.
 */
import type { PlanEntry } from '../../../workers/index.ts';
import type { DecryptedDownloadSource, DownloadRequest, FailedZipFile, FileKeySender } from './types.ts';

const DEFAULT_REQUIRED_HEADERS = ['x-encryption-iv'] as const;

/** The part of a plan every place a download runs takes alike. */
export interface PlanBody {
  readonly entries: PlanEntry[];
  readonly skipFailedFiles: boolean;
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

/** The files a download left out (with request.onFileFailed), and the callback that records them. */
export function failureCollector(request: Pick<DownloadRequest, 'onFileFailed'>): { failed: FailedZipFile[]; onFileFailed: ((entry: FailedZipFile) => void) | undefined } {
  const failed: FailedZipFile[] = [];
  const onFileFailed = request.onFileFailed
    ? (entry: FailedZipFile) => {
        failed.push(entry);
        request.onFileFailed?.(entry);
      }
    : undefined;
  return { failed, onFileFailed };
}

/**
 * Sends the sources' file keys (each once) from `pool` over `keyPort` to the download's worker and
 * then waits for `outcome`. When the keys cannot be sent, the worker reports KEY_UNAVAILABLE on its
 * status port; the error thrown here says why.
 */
export async function sendKeysThenAwait(
  pool: FileKeySender,
  sources: readonly DecryptedDownloadSource[],
  keyPort: MessagePort,
  outcome: Promise<number>,
): Promise<number> {
  const uniqueKeys = [...new Map(sources.map((source) => [source.key.id, source.key])).values()];
  try {
    await pool.sendFileKeys(uniqueKeys, keyPort);
  } catch (error) {
    keyPort.close();
    void outcome.catch(() => undefined);
    throw error;
  }
  return outcome;
}
