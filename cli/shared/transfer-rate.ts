// Rate and time left of a transfer, over a sliding window (as the upload page's
// src/lib/transferRate.ts; written again here because the commands may not import the page's code):
// no rate in the first second, and the window forgets a pause once it has passed.
const WINDOW_MS = 4_000;
const MIN_SPAN_MS = 1_000;

export class TransferRate {
  private readonly samples: Array<{ at: number; bytes: number }> = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  record(bytes: number): void {
    const at = this.now();
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[1]!.at > WINDOW_MS) this.samples.shift();
  }

  /** Bytes per second, or null while there is too little to tell. */
  bytesPerSecond(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < MIN_SPAN_MS) return null;
    return ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
  }

  /** Seconds until `remaining` bytes are through at the current rate, or null. */
  secondsLeft(remaining: number): number | null {
    const rate = this.bytesPerSecond();
    return rate === null || rate <= 0 ? null : remaining / rate;
  }
}
