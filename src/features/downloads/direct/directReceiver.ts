/**
 * Direct to disk (docs/download.md, "Direct to disk"): one file into a handle from the save dialog,
 * or several files as real files and folders into a picked folder. A dedicated worker per download
 * fetches, decrypts (the one decrypting stream) and writes; the file keys go from the crypto worker
 * straight to that worker, never through this thread, and leave with it when it is ended.
 */
import { createDirectDownloadWorker, DIRECT_PLAN_MESSAGE, DownloadError, type DirectPlan } from '../../../../workers/index.ts';
import type { PlanBody } from '../downloadPlan.ts';
import type { DownloadReceiver } from '../downloadStatus.ts';
import type { DownloadDestination } from '../types.ts';

/** After an abort, how long the worker may take to discard what it wrote before it is ended. */
const ABORT_GRACE_MS = 5_000;

export function directReceiver(destination: Extract<DownloadDestination, { kind: 'disk-file' | 'disk-folder' }>, body: PlanBody): DownloadReceiver {
  const plan: DirectPlan = {
    type: DIRECT_PLAN_MESSAGE,
    target: destination.kind === 'disk-file' ? { kind: 'file', file: destination.file } : { kind: 'tree', directory: destination.directory },
    ...body,
  };
  const worker = createDirectDownloadWorker();
  return {
    post: (keyPort, statusPort) => worker.postMessage(plan, [keyPort, statusPort]),
    // The worker runs the fetch, the decryption and the writes as soon as it has the keys.
    ready: () => null,
    // It aborts its writable (the browser discards the partial file) and answers with an error.
    abortGraceMs: ABORT_GRACE_MS,
    watch(fail) {
      worker.onerror = (event) => {
        event.preventDefault();
        fail(new DownloadError('FAILED', { detail: 'the download worker could not start' }));
      };
    },
    end: () => worker.terminate(), // the keys go with it
  };
}
