/**
 * The service worker's download endpoint (docs/download.md). The page registers a plan and the
 * crypto worker sends the keys; the browser's download manager then fetches
 * /downloads/{id}/{name}, which is answered once with the decrypted file or ZIP as a stream.
 * State is per download, keyed by its id, and forgotten when the stream ends or fails, when the
 * page aborts, or when the plan is not fetched in time: no keys outlive their download.
 */
import { safeAttachmentDisposition } from '../../contract/content-disposition.ts';
import { DownloadError } from './downloadErrors.ts';
import { downloadIdOfPath, isControlMessage, type DownloadPlan } from './protocol.ts';
import { openDecryptedFile } from './decryptedFile.ts';
import { ENGLISH_DOWNLOAD_SERVICE_TEXTS, type DownloadServiceTexts } from './messages.ts';
import { receiveFileKeys } from './keyInbox.ts';
import { monitorStream } from './monitoredStream.ts';
import { StatusReporter } from './statusReporter.ts';
import { createZipStream, zipLength } from './zipStream.ts';

export interface DownloadServiceOptions {
  /** How long a registered plan waits for the browser's request. */
  readonly planTtlMs?: number;
  /** How long registration waits for the keys from the crypto worker. */
  readonly keyTimeoutMs?: number;
  readonly fetch?: typeof fetch;
  /** How often a download whose reader takes nothing says it is alive (default READER_WAIT_REPORT_MS). */
  readonly readerWaitReportMs?: number;
}

/**
 * While the browser's download manager reads nothing (a download the user paused), no progress
 * flows, and the page would take the silence for a dead worker after STALL_TIMEOUT_MS (60 s,
 * src/features/downloads/downloadStatus.ts). So a download whose reader is behind reports its
 * unchanged byte count this often: four times inside the page's limit. A download whose *source*
 * stops (the reader waits for bytes) reports nothing, and a stopped worker cannot: both still end
 * as STALLED on the page.
 */
export const READER_WAIT_REPORT_MS = 15_000;

interface PendingDownload {
  readonly plan: DownloadPlan;
  readonly keys: Map<string, CryptoKey>;
  readonly status: StatusReporter;
  readonly statusPort: MessagePort;
  readonly expiry: ReturnType<typeof setTimeout>;
}

const DEFAULT_PLAN_TTL_MS = 60_000;

function textResponse(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

export class DownloadService {
  private readonly pending = new Map<string, PendingDownload>();
  /** The latest plan's texts: the language a page last spoke, for requests no plan matches. */
  private texts: DownloadServiceTexts = ENGLISH_DOWNLOAD_SERVICE_TEXTS;
  private running = 0;

  constructor(private readonly options: DownloadServiceOptions = {}) {}

  /** Downloads registered or streaming (the service worker stays alive while this is not 0). */
  get activeCount(): number {
    return this.pending.size + this.running;
  }

  /** A plan from the page, with the key port (from the crypto worker) and the status port. */
  async register(plan: DownloadPlan, keyPort: MessagePort, statusPort: MessagePort): Promise<void> {
    this.texts = plan.texts;
    const status = new StatusReporter(statusPort);
    let keys: Map<string, CryptoKey>;
    try {
      keys = await receiveFileKeys(keyPort, this.options.keyTimeoutMs);
    } catch {
      status.failed(new DownloadError('KEY_UNAVAILABLE', { file: plan.fileName }));
      return;
    }
    const missing = plan.entries.find((entry) => !keys.has(entry.keyId));
    if (missing || this.pending.has(plan.id)) {
      keys.clear();
      status.failed(new DownloadError('KEY_UNAVAILABLE', { file: missing?.name ?? plan.fileName }));
      return;
    }
    const expiry = setTimeout(() => this.drop(plan.id, new DownloadError('EXPIRED')), this.options.planTtlMs ?? DEFAULT_PLAN_TTL_MS);
    this.pending.set(plan.id, { plan, keys, status, statusPort, expiry });
    statusPort.onmessage = (event: MessageEvent<unknown>) => {
      if (isControlMessage(event.data)) this.drop(plan.id, new DownloadError('ABORTED'));
    };
    status.post({ type: 'ready' });
  }

  /** True for requests this service answers (same origin, under /downloads/). */
  handles(url: URL, origin: string): boolean {
    return url.origin === origin && downloadIdOfPath(url.pathname) !== null;
  }

  /** The browser's request for a registered download: answered once, then the plan is gone. */
  async respond(url: URL): Promise<Response> {
    const id = downloadIdOfPath(url.pathname);
    const download = id === null ? undefined : this.pending.get(id);
    if (!download || id === null) {
      return textResponse(404, this.texts.expired);
    }
    this.forget(id);
    this.running += 1;
    const { plan, keys, status, statusPort } = download;
    const abortFetches = new AbortController();
    let readerWatch: ReturnType<typeof setInterval> | undefined;
    const finish = (failed: boolean) => {
      clearInterval(readerWatch);
      keys.clear();
      // A failed or cancelled download stops the ciphertext fetch it may still have open.
      if (failed) abortFetches.abort();
      this.running -= 1;
    };

    let body: ReadableStream<Uint8Array>;
    let length: number | null;
    try {
      if (plan.kind === 'file') {
        const entry = plan.entries[0];
        if (!entry || plan.entries.length !== 1) throw new DownloadError('FAILED', { detail: 'a file download needs one file' });
        // The ciphertext's status and headers are checked before answering, so a failed fetch
        // never leaves a bogus file in the download folder.
        body = await openDecryptedFile(entry, { keys, signal: abortFetches.signal, ...this.fetchOption() });
        length = entry.plainSize;
      } else {
        body = createZipStream(plan.entries, {
          keys,
          signal: abortFetches.signal,
          skipFailedFiles: plan.skipFailedFiles,
          onFileFailed: (entry, error) => status.fileFailed(entry.name, error),
          ...this.fetchOption(),
        });
        length = plan.skipFailedFiles ? null : zipLength(plan.entries);
      }
    } catch (error) {
      finish(true);
      status.failed(error);
      return textResponse(502, plan.texts.failed);
    }

    let handedOver = 0;
    const monitored = monitorStream(body, {
      onBytes: (bytes) => {
        handedOver = bytes;
        status.progress(bytes);
      },
      onDone: (bytes) => {
        finish(false);
        status.done(bytes);
      },
      onFailed: (error) => {
        finish(true);
        status.failed(error);
      },
    });
    statusPort.onmessage = (event: MessageEvent<unknown>) => {
      if (isControlMessage(event.data)) monitored.abort(new DownloadError('ABORTED'));
    };
    status.post({ type: 'started', totalBytes: length });
    readerWatch = setInterval(() => {
      if (monitored.readerIsBehind()) status.waitingForReader(handedOver);
    }, this.options.readerWaitReportMs ?? READER_WAIT_REPORT_MS);

    const headers = new Headers({
      'content-type': plan.kind === 'zip' ? 'application/zip' : 'application/octet-stream',
      'content-disposition': safeAttachmentDisposition(plan.fileName),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    if (length !== null) headers.set('content-length', String(length));
    return new Response(monitored.stream, { status: 200, headers });
  }

  private fetchOption(): { fetch?: typeof fetch } {
    return this.options.fetch ? { fetch: this.options.fetch } : {};
  }

  /** Takes a registered download out of the waiting list (it is then started or dropped). */
  private forget(id: string): PendingDownload | undefined {
    const download = this.pending.get(id);
    if (!download) return undefined;
    clearTimeout(download.expiry);
    this.pending.delete(id);
    return download;
  }

  /** A registered download that will never start: its keys are let go and the page is told why. */
  private drop(id: string, reason: DownloadError): void {
    const download = this.forget(id);
    if (!download) return;
    download.keys.clear();
    download.status.failed(reason);
  }
}
