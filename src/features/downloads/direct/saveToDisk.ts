/**
 * Direct to disk (docs/download.md, "Direct to disk"): one file into a handle from the save
 * dialog, or several files as real files and folders into a picked folder. A dedicated worker per
 * download fetches, decrypts (the one decrypting stream) and writes; the file keys go from the
 * crypto worker straight to that worker, never through this thread, and leave with it when it is
 * ended. Same contract as startDownload.ts: resolves once every byte is on disk, rejects with a
 * DownloadError whose `code` says why. The caller owns the file keys: release them afterwards.
 */
import {
  DOWNLOAD_MESSAGES,
  DownloadError,
  type ControlMessage,
  type StatusMessage,
  DIRECT_PLAN_MESSAGE,
  type DirectPlan,
  type DirectTarget,
  createDirectDownloadWorker,
  fromWireError,
} from '../../../../workers/index.ts';
import { abortedDownload, failureCollector, planEntries, READY_TIMEOUT_MS, sendKeysThenAwait } from '../downloadPlan.ts';
import { ProgressMeter } from '../progressMeter.ts';
import type { DecryptedDownloadSource, DownloadOptions, FailedZipFile, ZipDownloadOptions } from '../types.ts';

/** What a folder save did (the same shape as a ZIP's outcome). */
export interface FolderSaveOutcome {
  /** Plaintext bytes written in complete files. */
  bytes: number;
  /** Files saved. */
  files: number;
  /** Files left out (removed again); only with onFileFailed. */
  failed: FailedZipFile[];
}

/** After an abort, how long the worker may take to discard what it wrote before it is ended. */
const ABORT_GRACE_MS = 5_000;


/** Saves one decrypted file into `file` (from pickSaveFile). */
export async function saveFileToDisk(source: DecryptedDownloadSource, file: FileSystemFileHandle, options: DownloadOptions = {}): Promise<void> {
  await runDirect({ kind: 'file', file }, [source], options, undefined);
}

/**
 * Saves the files into `directory` (from pickDirectory), each under its `name` as a relative path
 * ('docs/2024/a.txt'): subfolders are created, existing files are never overwritten (a taken name
 * gets ' (2)'). With onFileFailed a file that fails is removed and reported, and the rest go on.
 */
export async function saveFilesToFolder(
  sources: readonly DecryptedDownloadSource[],
  directory: FileSystemDirectoryHandle,
  options: ZipDownloadOptions = {},
): Promise<FolderSaveOutcome> {
  if (sources.length === 0) throw new DownloadError('FAILED', 'No files selected for download.');
  const { failed, onFileFailed } = failureCollector(options);
  const bytes = await runDirect({ kind: 'tree', directory }, sources, options, onFileFailed);
  return { bytes, files: sources.length - failed.length, failed };
}

async function runDirect(
  target: DirectTarget,
  sources: readonly DecryptedDownloadSource[],
  options: DownloadOptions,
  onFileFailed: ((failed: FailedZipFile) => void) | undefined,
): Promise<number> {
  if (options.signal?.aborted) throw abortedDownload();
  const plan: DirectPlan = {
    type: DIRECT_PLAN_MESSAGE,
    target,
    skipFailedFiles: onFileFailed !== undefined,
    entries: planEntries(sources),
  };
  const worker = createDirectDownloadWorker();
  const keyChannel = new MessageChannel();
  const statusChannel = new MessageChannel();
  const statusPort = statusChannel.port1;
  let meter: ProgressMeter | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const outcome = new Promise<number>((resolve, reject) => {
    let settled = false;
    const end = () => {
      clearTimeout(timer);
      statusPort.onmessage = null;
      statusPort.close();
      worker.terminate(); // the keys go with it
      options.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: DownloadError) => {
      if (settled) return;
      settled = true;
      end();
      reject(error);
    };
    const onAbort = () => {
      // The worker aborts its writable (the browser discards the partial file) and answers with an
      // error; it is ended anyway if that takes too long.
      statusPort.postMessage({ type: 'abort' } satisfies ControlMessage);
      clearTimeout(timer);
      timer = setTimeout(() => fail(abortedDownload()), ABORT_GRACE_MS);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => fail(new DownloadError('EXPIRED', DOWNLOAD_MESSAGES.expired)), READY_TIMEOUT_MS);
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new DownloadError('FAILED', DOWNLOAD_MESSAGES.unexpected('the download worker could not start')));
    };

    statusPort.onmessage = (event: MessageEvent<StatusMessage>) => {
      const message = event.data;
      switch (message.type) {
        case 'ready':
          clearTimeout(timer);
          break;
        case 'started':
          meter = new ProgressMeter(message.totalBytes ?? 0);
          options.onProgress?.(meter.update(0));
          break;
        case 'progress':
          if (meter) options.onProgress?.(meter.update(message.bytes));
          break;
        case 'file-failed':
          onFileFailed?.({ name: message.name, error: fromWireError(message.failure) });
          break;
        case 'done':
          if (settled) return;
          settled = true;
          end();
          resolve(message.bytes);
          break;
        case 'error':
          fail(options.signal?.aborted ? abortedDownload() : fromWireError(message.failure));
          break;
      }
    };
  });

  worker.postMessage(plan, [keyChannel.port2, statusChannel.port2]);
  return sendKeysThenAwait(sources, keyChannel.port1, outcome);
}
