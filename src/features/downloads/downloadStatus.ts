/**
 * The one status machine of a download, whichever worker runs it: the service worker (a file or a
 * ZIP for the browser's downloads) or the dedicated direct-to-disk worker (a file or a folder).
 * The receiver answers on the status port: 'ready' once it holds the file keys, 'started' with
 * the total when bytes flow, 'progress', 'file-failed' for a file a batch left out, then 'done' or
 * 'error'. Every wait has an end: 'ready' within READY_TIMEOUT_MS, 'started' within the
 * receiver's start limit when it has one, after 'started' a 'progress' at least every
 * STALL_TIMEOUT_MS (the worker that streams may die mid-stream: a service worker the browser
 * stops, a dedicated worker that crashes; neither tells the page), and an abort within its grace. The two receivers differ
 * only in what `DownloadReceiver` says, never in the machine.
 */
import { DownloadError, fromWireError, type ControlMessage, type StatusMessage } from '../../../workers/index.ts';
import { ProgressMeter } from './progressMeter.ts';
import type { DownloadOptions, FailedZipFile } from './types.ts';

/** From posting a plan until the download's worker has the keys. */
export const READY_TIMEOUT_MS = 20_000;

/**
 * After 'started', the longest time without a 'progress' before the download is failed as
 * STALLED. Workers report progress several times a second while bytes flow (statusReporter.ts),
 * so a minute of silence is a worker that is gone, not a slow network (docs/download.md, "Liveness").
 */
export const STALL_TIMEOUT_MS = 60_000;

export function abortedDownload(): DownloadError {
  return new DownloadError('ABORTED');
}

/** What differs between the places a download runs. */
export interface DownloadReceiver {
  /** Hands the plan and both ports to the worker. */
  post(keyPort: MessagePort, statusPort: MessagePort): void;
  /**
   * The worker holds the keys: whatever it needs next (the service worker: the browser's request
   * for the download). Returns how long 'started' may take from now; null: no limit here.
   */
  ready(): number | null;
  /**
   * After the page asked for an abort, how long the worker may take to answer (the direct worker
   * discards what it wrote) before the download is given up anyway; 0: at once.
   */
  readonly abortGraceMs: number;
  /** Reports a worker that failed outside the status port (a dedicated worker that did not start). */
  watch(fail: (error: DownloadError) => void): void;
  /** Runs once when the download settles, however it ends. */
  end(): void;
}

/**
 * Opens the status port, posts the plan through `receiver` and resolves with the bytes written
 * once the worker says 'done'; rejects with a DownloadError otherwise. `keyPort` is left for the
 * caller, which sends the file keys into it.
 */
export function awaitDownload(
  receiver: DownloadReceiver,
  keyPort: MessagePort,
  options: DownloadOptions,
  onFileFailed: ((failed: FailedZipFile) => void) | undefined,
): Promise<number> {
  const { port1: statusPort, port2: remoteStatusPort } = new MessageChannel();
  const { signal, onProgress } = options;
  let meter: ProgressMeter | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Once the page asked for an abort, only the worker's answer or the grace ends the download. */
  let aborting = false;
  const control = (message: ControlMessage) => statusPort.postMessage(message);

  const outcome = new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      statusPort.onmessage = null;
      statusPort.close();
      signal?.removeEventListener('abort', onAbort);
      receiver.end();
      finish();
    };
    const fail = (error: DownloadError) => settle(() => reject(error));
    const expireIn = (ms: number, askToAbort: boolean) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (askToAbort) control({ type: 'abort' });
        fail(new DownloadError('EXPIRED'));
      }, ms);
    };
    /** (Re)arms the no-progress watchdog; a worker that went silent is asked to abort. */
    const watchProgress = () => {
      if (aborting) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        control({ type: 'abort' });
        fail(new DownloadError('STALLED'));
      }, STALL_TIMEOUT_MS);
    };
    const onAbort = () => {
      aborting = true;
      control({ type: 'abort' });
      if (receiver.abortGraceMs === 0) return fail(abortedDownload());
      clearTimeout(timer);
      timer = setTimeout(() => fail(abortedDownload()), receiver.abortGraceMs);
    };

    signal?.addEventListener('abort', onAbort, { once: true });
    expireIn(READY_TIMEOUT_MS, false);
    receiver.watch(fail);
    statusPort.onmessage = (event: MessageEvent<StatusMessage>) => {
      const message = event.data;
      switch (message.type) {
        case 'ready': {
          if (aborting) break;
          clearTimeout(timer);
          const startWithin = receiver.ready();
          if (startWithin !== null) expireIn(startWithin, true);
          break;
        }
        case 'started':
          watchProgress();
          meter = new ProgressMeter(message.totalBytes ?? 0);
          onProgress?.(meter.update(0));
          break;
        case 'progress':
          if (meter) {
            watchProgress();
            onProgress?.(meter.update(message.bytes));
          }
          break;
        case 'file-failed':
          onFileFailed?.({ name: message.name, error: fromWireError(message.failure) });
          break;
        case 'done':
          settle(() => resolve(message.bytes));
          break;
        case 'error':
          fail(signal?.aborted ? abortedDownload() : fromWireError(message.failure));
          break;
      }
    };
  });

  receiver.post(keyPort, remoteStatusPort);
  return outcome;
}
