// Between the upload pipeline and the store: every status change and progress event of a run is
// collected here and handed to the store as one batch at most every FLUSH_INTERVAL_MS (plus one
// trailing flush, so the last state is never stuck), with bytes, rate and time left per file and
// for the whole run. Throttling is driven by the events themselves and a timestamp check; the one
// timer only delivers the trailing flush, so a background tab that stretches timers slows the
// display, never the upload.

import { RateMeter, secondsLeft } from '../../lib/transferRate.ts';
import type { OverallProgress, QueuedFileChanges, QueuePatch } from './uploadQueueSlice.ts';

export const FLUSH_INTERVAL_MS = 250;

interface Tracked {
  size: number;
  bytes: number;
  done: boolean;
  failed: boolean;
  /** Waiting for the network to come back: no rate and no time left are shown meanwhile. */
  waiting: boolean;
  meter: RateMeter;
}

export interface ProgressSink {
  (patches: QueuePatch[], overall: OverallProgress): void;
}

export class ProgressReporter {
  private readonly files = new Map<string, Tracked>();
  private pending = new Map<string, QueuedFileChanges>();
  private readonly overallMeter = new RateMeter();
  private lastFlush = Number.NEGATIVE_INFINITY;
  private trailing: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    files: ReadonlyArray<{ id: string; size: number }>,
    private readonly sink: ProgressSink,
    private readonly now: () => number = () => performance.now(),
  ) {
    for (const file of files) this.files.set(file.id, { size: file.size, bytes: 0, done: false, failed: false, waiting: false, meter: new RateMeter() });
  }

  /** Any change of a file's row other than progress. */
  change(id: string, changes: QueuedFileChanges): void {
    const file = this.files.get(id);
    if (file && changes.waitingForNetwork !== undefined) file.waiting = changes.waitingForNetwork;
    this.merge(id, changes);
    this.schedule();
  }

  progress(id: string, fraction: number): void {
    const file = this.files.get(id);
    if (!file || file.done) return;
    file.bytes = Math.round(Math.min(1, Math.max(0, fraction)) * file.size);
    file.meter.add(this.now(), file.bytes);
    this.schedule();
  }

  /** The file reached a final state; `stored` files count as fully sent. */
  finish(id: string, changes: QueuedFileChanges, stored: boolean): void {
    const file = this.files.get(id);
    if (file) {
      file.done = true;
      file.failed = !stored;
      if (stored) file.bytes = file.size;
    }
    this.merge(id, { ...changes, ...(stored ? { progress: 100, bytesSent: file?.size ?? 0 } : {}), bytesPerSecond: null, secondsLeft: null, waitingForNetwork: false });
    this.schedule();
  }

  /** Sends whatever is pending now (end of a run, or a state the page must show at once). */
  flush(): void {
    clearTimeout(this.trailing);
    this.trailing = undefined;
    if (this.disposed) return;
    this.lastFlush = this.now();
    const at = this.lastFlush;
    for (const [id, file] of this.files) {
      if (file.done || file.bytes === 0) continue;
      // A sample at every flush, not only at progress events, so a stall lowers the rate.
      file.meter.add(at, file.bytes);
      const rate = file.waiting ? null : file.meter.rate();
      this.merge(id, {
        progress: file.size > 0 ? Math.floor((file.bytes / file.size) * 100) : 0,
        bytesSent: file.bytes,
        bytesPerSecond: rate,
        secondsLeft: secondsLeft(file.size - file.bytes, rate),
      });
    }
    const patches = [...this.pending].map(([id, changes]) => ({ id, changes }));
    this.pending = new Map();
    this.sink(patches, this.overall(at));
  }

  dispose(): void {
    clearTimeout(this.trailing);
    this.disposed = true;
  }

  private overall(at: number): OverallProgress {
    let bytesTotal = 0;
    let bytesSent = 0;
    let filesDone = 0;
    let moving = false;
    for (const file of this.files.values()) {
      if (file.done) filesDone++;
      else if (file.bytes > 0 && !file.waiting) moving = true;
      if (file.failed) continue;
      bytesTotal += file.size;
      bytesSent += file.bytes;
    }
    this.overallMeter.add(at, bytesSent);
    const rate = moving ? this.overallMeter.rate() : null;
    return { filesTotal: this.files.size, filesDone, bytesTotal, bytesSent, bytesPerSecond: rate, secondsLeft: secondsLeft(bytesTotal - bytesSent, rate) };
  }

  private merge(id: string, changes: QueuedFileChanges): void {
    this.pending.set(id, { ...this.pending.get(id), ...changes });
  }

  private schedule(): void {
    if (this.disposed) return;
    const wait = this.lastFlush + FLUSH_INTERVAL_MS - this.now();
    if (wait <= 0) this.flush();
    else this.trailing ??= setTimeout(() => this.flush(), wait);
  }
}
