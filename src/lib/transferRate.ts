// Transfer rate over a sliding window of recent samples, and the time left at that rate (uploads
// and downloads both show them). A value that goes back (a resumed upload re-sends part of a
// chunk) restarts the window.

export const RATE_WINDOW_MS = 4000;
/**
 * No rate (so no time left) before this much history: in the first moments the pipeline is still
 * filling (hashing, the first records encrypting) and a rate measured then predicts hundreds of
 * hours for a file that takes a minute.
 */
export const MIN_RATE_SPAN_MS = 1000;

export class RateMeter {
  private samples: Array<{ at: number; bytes: number }> = [];

  constructor(private readonly windowMs = RATE_WINDOW_MS) {}

  add(at: number, bytes: number): void {
    const last = this.samples[this.samples.length - 1];
    if (last && bytes < last.bytes) this.samples = [];
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
  }

  /** Bytes per second, or null until there is enough to say. */
  rate(): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.at - first.at < MIN_RATE_SPAN_MS || last.bytes <= first.bytes) return null;
    return ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
  }
}

export function secondsLeft(remainingBytes: number, bytesPerSecond: number | null): number | null {
  if (remainingBytes <= 0) return 0;
  if (bytesPerSecond === null || bytesPerSecond <= 0) return null;
  return remainingBytes / bytesPerSecond;
}
