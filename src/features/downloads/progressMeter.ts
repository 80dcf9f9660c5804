/**
 * Bytes, rate and time left of a running download, from the byte counts the service worker
 * reports. The rate is measured over a sliding window (a few seconds), so it follows the disk and
 * the network without jumping on every report.
 */
import { RateMeter, secondsLeft } from '../../lib/transferRate.ts';

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
  private readonly meter = new RateMeter(WINDOW_MS);

  constructor(
    private readonly totalBytes: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.meter.add(now(), 0);
  }

  update(bytes: number): DownloadProgress {
    this.meter.add(this.now(), bytes);
    const rate = this.meter.rate();
    return {
      bytes,
      totalBytes: this.totalBytes,
      rateBytesPerSecond: rate ?? 0,
      secondsLeft: this.totalBytes > 0 ? secondsLeft(this.totalBytes - bytes, rate) : null,
    };
  }
}
