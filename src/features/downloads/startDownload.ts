/**
 * The streaming-download contract (README.md in this folder): the files of `sources`, fetched,
 * decrypted and written where `destination` says, never collected in this page's memory. A file
 * or a ZIP goes through the service worker to the browser's download manager
 * (serviceWorkerBridge.ts); a file or a folder picked in the browser's dialogs goes through a
 * dedicated worker straight to disk (direct/directReceiver.ts). Both run the one status machine
 * (downloadStatus.ts). Resolves when the last byte was handed over and rejects with a
 * DownloadError (fixed `code`) otherwise. The caller owns the file keys: release them afterwards.
 */
import { DownloadError } from '../../../workers/index.ts';
import { directReceiver } from './direct/directReceiver.ts';
import { abortedDownload, awaitDownload } from './downloadStatus.ts';
import { failureCollector, planEntries, sendKeysThenAwait } from './downloadPlan.ts';
import { serviceWorkerReceiver } from './serviceWorkerBridge.ts';
import type { DownloadDestination, DownloadOutcome, DownloadRequest } from './types.ts';

/** True for the destinations that take exactly one file ('browser-file', 'disk-file'). */
export function holdsOneFile(destination: DownloadDestination): boolean {
  return destination.kind === 'browser-file' || destination.kind === 'disk-file';
}

function checkSources(request: DownloadRequest): void {
  const { destination, sources } = request;
  if (sources.length === 0) {
    throw new DownloadError('FAILED', { case: destination.kind === 'browser-zip' ? 'no-zip-files' : 'no-files' });
  }
  if (holdsOneFile(destination) && sources.length !== 1) {
    throw new DownloadError('FAILED', { detail: 'a single-file download was given several files' });
  }
}

export async function startDownload(request: DownloadRequest): Promise<DownloadOutcome> {
  const { pool, destination, sources } = request;
  if (request.signal?.aborted) throw abortedDownload();
  checkSources(request);
  // A single file never skips itself: its failure is the download's.
  const { failed, onFileFailed } = holdsOneFile(destination) ? { failed: [], onFileFailed: undefined } : failureCollector(request);
  const plan = { entries: planEntries(sources), skipFailedFiles: onFileFailed !== undefined };
  const receiver =
    destination.kind === 'browser-file' || destination.kind === 'browser-zip'
      ? await serviceWorkerReceiver(destination, sources, plan)
      : directReceiver(destination, plan);
  const { port1: keyPort, port2: remoteKeyPort } = new MessageChannel();
  const outcome = awaitDownload(receiver, remoteKeyPort, request, onFileFailed);
  const bytes = await sendKeysThenAwait(pool, sources, keyPort, outcome);
  return { bytes, files: sources.length - failed.length, failed };
}
