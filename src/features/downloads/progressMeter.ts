/**
 * Bytes, rate and time left of a running download, from the byte counts the service worker
 * reports. The rate is measured over a sliding window (a few seconds), so it follows the disk and
 * the network without jumping on every report.
 */

export interface DownloadProgress {
  bytes: number;
  /** Plaintext bytes (one file) or the archive's predicted length; 0 when unknown. */
  totalBytes: number;
  rateBytesPerSecond: number;
  /** null until a rate is known, or when the total is unknown. */
  secondsLeft: number | null;
}

const WINDOW_MS = 3000;

export class ProgressMeter {
  private readonly samples: Array<{ at: number; bytes: number }> = [];

  constructor(
    private readonly totalBytes: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.samples.push({ at: now(), bytes: 0 });
  }

  update(bytes: number): DownloadProgress {
    const at = this.now();
    this.samples.push({ at, bytes });
    // Keep one sample older than the window so the rate always spans at least the window.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - WINDOW_MS) this.samples.shift();
    const first = this.samples[0]!;
    const elapsed = (at - first.at) / 1000;
    const rate = elapsed > 0 ? Math.max(0, (bytes - first.bytes) / elapsed) : 0;
    const remaining = Math.max(0, this.totalBytes - bytes);
    return {
      bytes,
      totalBytes: this.totalBytes,
      rateBytesPerSecond: rate,
      secondsLeft: this.totalBytes > 0 && rate > 0 ? remaining / rate : null,
    };
  }
}
