// The whole run's progress on a terminal (stderr): one line redrawn at most every 250 ms with the
// bytes done, the rate and the time left; lines printed meanwhile (a file stored, a retry) appear
// above it. Off when stderr is not a terminal (scripts, --json), so logs stay clean.
import { formatBytes } from '../../server/recovery/index.ts';
import { TransferRate } from './transfer-rate.ts';

const REDRAW_EVERY_MS = 250;

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

export class ProgressBar {
  private readonly active: boolean;
  private readonly rate = new TransferRate();
  private done = 0;
  private drawnAt = 0;
  private drawn = false;
  private note = '';

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly label: string,
    private readonly total: number,
    enabled = true,
  ) {
    this.active = enabled && out.isTTY === true;
  }

  /** Bytes done so far (may go back a little when a request is sent again). */
  update(done: number): void {
    this.done = done;
    this.rate.record(done);
    this.redraw(false);
  }

  /** A short state shown after the figures (e.g. "connection lost, trying again in 8 s"); '' clears it. */
  setNote(note: string): void {
    this.note = note;
    this.redraw(true);
  }

  /** Prints a line above the bar. */
  log(line: string, to: NodeJS.WriteStream = this.out): void {
    if (this.active && this.drawn) this.out.write('\r\x1b[K');
    to.write(`${line}\n`);
    this.drawn = false;
    this.redraw(true);
  }

  finish(): void {
    if (this.active && this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }

  private redraw(force: boolean): void {
    if (!this.active) return;
    const now = performance.now();
    if (!force && now - this.drawnAt < REDRAW_EVERY_MS) return;
    this.drawnAt = now;
    const percent = this.total > 0 ? Math.floor((this.done / this.total) * 100) : 100;
    const perSecond = this.rate.bytesPerSecond();
    const left = this.rate.secondsLeft(this.total - this.done);
    const figures = [
      `${formatBytes(this.done)} of ${formatBytes(this.total)} (${percent} %)`,
      perSecond === null ? null : `${formatBytes(perSecond)}/s`,
      left === null ? null : `${formatDuration(left)} left`,
      this.note || null,
    ]
      .filter((part) => part !== null)
      .join(', ');
    const line = `${this.label}: ${figures}`;
    const width = this.out.columns ?? 100;
    this.out.write(`\r${line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line}\x1b[K`);
    this.drawn = true;
  }
}
