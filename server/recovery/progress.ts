// Progress of a large file on a terminal (stderr), and the byte and rate figures of the report.
// Rates are decimal MB/s (10^6 bytes per second), like the other benchmarks here.

const MIN_BYTES_FOR_PROGRESS = 32 * 1024 * 1024;
const REDRAW_EVERY_MS = 250;

/** A size in decimal units (1.50 MB); `locale` writes the number its way (German 1,50 MB). */
export function formatBytes(bytes: number, locale = 'en'): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value < 10 ? 2 : 1;
  return `${value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false })} ${units[unit]}`;
}

export function megabytesPerSecond(bytes: number, milliseconds: number): number {
  return milliseconds > 0 ? bytes / 1000 / milliseconds : 0;
}

export class ProgressLine {
  private label = '';
  private total = 0;
  private startedAt = 0;
  private drawnAt = 0;
  private active = false;

  constructor(private readonly out: NodeJS.WriteStream) {}

  start(label: string, totalBytes: number): void {
    this.active = this.out.isTTY === true && totalBytes >= MIN_BYTES_FOR_PROGRESS;
    this.label = label;
    this.total = totalBytes;
    this.startedAt = performance.now();
    this.drawnAt = 0;
  }

  update(bytes: number): void {
    if (!this.active) return;
    const now = performance.now();
    if (now - this.drawnAt < REDRAW_EVERY_MS) return;
    this.drawnAt = now;
    const percent = Math.floor((bytes / this.total) * 100);
    const rate = megabytesPerSecond(bytes, now - this.startedAt).toFixed(0);
    const figures = `  ${formatBytes(bytes)} of ${formatBytes(this.total)} (${percent} %), ${rate} MB/s`;
    const room = Math.max(10, (this.out.columns ?? 80) - figures.length - 1);
    const label = this.label.length > room ? `…${this.label.slice(-(room - 1))}` : this.label;
    this.out.write(`\r${label}${figures}\x1b[K`);
  }

  /** Clears the line, so the file's result line is printed on a clean line. */
  finish(): void {
    if (this.active) this.out.write('\r\x1b[K');
    this.active = false;
  }
}
