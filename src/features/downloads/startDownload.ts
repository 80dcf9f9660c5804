/**
 * The streaming-download contract (README.md in this folder): one file, or several files as one
 * ZIP, fetched, decrypted and written to disk by the service worker and the browser's download
 * manager, never collected in this page's memory. Both functions resolve when the last byte was
 * handed to the browser and reject with a DownloadError (fixed `code`) otherwise.
 */
import {
  DOWNLOAD_MESSAGES,
  DownloadError,
  PLAN_MESSAGE,
  type ControlMessage,
  type DownloadPlan,
  type StatusMessage,
  fromWireError,
} from '../../../workers/index.ts';
import { safeFileName } from '../../../contract/content-disposition.ts';
import { abortedDownload, failureCollector, planEntries, READY_TIMEOUT_MS, sendKeysThenAwait } from './downloadPlan.ts';
import { ProgressMeter } from './progressMeter.ts';
import type { DecryptedDownloadSource, DownloadOptions, FailedZipFile, ZipDownloadOptions, ZipDownloadOutcome } from './types.ts';
import { controllingServiceWorker, keepServiceWorkerAlive, triggerBrowserDownload } from './serviceWorkerBridge.ts';

/** From the click until the download manager's request reaches the worker. */
const START_TIMEOUT_MS = 30_000;

export function startFileDownload(source: DecryptedDownloadSource, options: DownloadOptions = {}): Promise<void> {
  const fileName = safeFileName(source.name);
  return runDownload('file', fileName, [source], options, undefined).then(() => undefined);
}

export async function startZipDownload(zipName: string, sources: readonly DecryptedDownloadSource[], options: ZipDownloadOptions = {}): Promise<ZipDownloadOutcome> {
  if (sources.length === 0) throw new DownloadError('FAILED', 'No files selected for ZIP download.');
  const { failed, onFileFailed } = failureCollector(options);
  const bytes = await runDownload('zip', safeFileName(zipName), sources, options, onFileFailed);
  return { bytes, files: sources.length - failed.length, failed };
}


async function runDownload(
  kind: 'file' | 'zip',
  fileName: string,
  sources: readonly DecryptedDownloadSource[],
  options: DownloadOptions,
  onFileFailed: ((failed: FailedZipFile) => void) | undefined,
): Promise<number> {
  if (options.signal?.aborted) throw abortedDownload();
  const worker = await controllingServiceWorker();
  const plan: DownloadPlan = {
    type: PLAN_MESSAGE,
    id: crypto.randomUUID(),
    kind,
    fileName,
    skipFailedFiles: onFileFailed !== undefined,
    entries: planEntries(sources),
  };
  const keyChannel = new MessageChannel();
  const statusChannel = new MessageChannel();
  const statusPort = statusChannel.port1;
  const meter = { current: null as ProgressMeter | null };
  let stopKeepalive = () => {};
  let removeTrigger = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;

  const outcome = new Promise<number>((resolve, reject) => {
    const fail = (error: DownloadError) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      clearTimeout(timer);
      stopKeepalive();
      removeTrigger();
      statusPort.onmessage = null;
      statusPort.close();
      options.signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      const message: ControlMessage = { type: 'abort' };
      statusPort.postMessage(message);
      fail(abortedDownload());
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => fail(new DownloadError('EXPIRED', DOWNLOAD_MESSAGES.expired)), READY_TIMEOUT_MS);

    statusPort.onmessage = (event: MessageEvent<StatusMessage>) => {
      const message = event.data;
      switch (message.type) {
        case 'ready':
          clearTimeout(timer);
          timer = setTimeout(() => {
            statusPort.postMessage({ type: 'abort' } satisfies ControlMessage);
            fail(new DownloadError('EXPIRED', DOWNLOAD_MESSAGES.expired));
          }, START_TIMEOUT_MS);
          stopKeepalive = keepServiceWorkerAlive(worker);
          removeTrigger = triggerBrowserDownload(plan.id, fileName);
          break;
        case 'started':
          clearTimeout(timer);
          meter.current = new ProgressMeter(message.totalBytes ?? 0);
          options.onProgress?.(meter.current.update(0));
          break;
        case 'progress':
          if (meter.current) options.onProgress?.(meter.current.update(message.bytes));
          break;
        case 'file-failed':
          onFileFailed?.({ name: message.name, error: fromWireError(message.failure) });
          break;
        case 'done':
          cleanup();
          resolve(message.bytes);
          break;
        case 'error':
          fail(fromWireError(message.failure));
          break;
      }
    };
  });

  worker.postMessage(plan, [keyChannel.port2, statusChannel.port2]);
  return sendKeysThenAwait(sources, keyChannel.port1, outcome);
}
