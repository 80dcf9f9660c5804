/** The dedicated worker of one direct-to-disk download (direct.worker.ts), started by the page. */
export function createDirectDownloadWorker(): Worker {
  return new Worker(new URL('./direct.worker.ts', import.meta.url), { type: 'module', name: 'sealdrop-direct-download' });
}
