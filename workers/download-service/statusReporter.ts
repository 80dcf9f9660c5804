/**
 * Service worker -> page reports of one download on its status port: ready, started, progress
 * (at most every PROGRESS_INTERVAL_MS), skipped files, and one final done or error, after which
 * the port is closed.
 */
import { toWireError } from '../wire-errors.ts';
import { DownloadError } from './downloadErrors.ts';
import type { StatusMessage } from './protocol.ts';

const PROGRESS_INTERVAL_MS = 200;

/** What the page is told of a failure: a DownloadError as it is, anything else as unexpected. */
function asDownloadError(error: unknown): DownloadError {
  if (error instanceof DownloadError) return error;
  const detail = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return new DownloadError('FAILED', { detail });
}

export class StatusReporter {
  private lastProgressAt = 0;
  private finished = false;

  constructor(
    private readonly port: MessagePort,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get isFinished(): boolean {
    return this.finished;
  }

  post(message: StatusMessage): void {
    if (this.finished) return;
    try {
      this.port.postMessage(message);
    } catch {
      // The page went away; the download itself carries on for the browser.
    }
  }

  progress(bytes: number): void {
    const now = this.now();
    if (now - this.lastProgressAt < PROGRESS_INTERVAL_MS) return;
    this.lastProgressAt = now;
    this.post({ type: 'progress', bytes });
  }

  /**
   * Alive, with no byte moved since the last report: the browser is not reading (a paused
   * download). Not throttled: it is rare, and it is what keeps the page's watchdog from firing.
   */
  waitingForReader(bytes: number): void {
    this.lastProgressAt = this.now();
    this.post({ type: 'progress', bytes });
  }

  done(bytes: number): void {
    this.post({ type: 'progress', bytes });
    this.post({ type: 'done', bytes });
    this.close();
  }

  /** One file of several failed and was left out; the download goes on. */
  fileFailed(name: string, error: unknown): void {
    this.post({ type: 'file-failed', name, failure: toWireError(asDownloadError(error)) });
  }

  failed(error: unknown): void {
    this.post({ type: 'error', failure: toWireError(asDownloadError(error)) });
    this.close();
  }

  private close(): void {
    this.finished = true;
    this.port.onmessage = null;
    this.port.close();
  }
}
