// What an upload run says about each file: a line per file for people (stored files on stdout,
// failures on stderr, as `npm run recover` does), or with --json one JSON object per line on
// stdout, and a summary at the end. Names are shown with control characters escaped.
import { formatBytes, printablePath } from '../../server/recovery/index.ts';
import type { ProgressBar } from '../shared/progress-bar.ts';
import type { FileOutcome } from './outcome.ts';
import { uploadPathOf, type SourceFile } from './source-files.ts';

export interface RunTotals {
  files: number;
  stored: number;
  skipped: number;
  failed: number;
  plainBytes: number;
}

export class UploadReport {
  readonly totals: RunTotals = { files: 0, stored: 0, skipped: 0, failed: 0, plainBytes: 0 };

  constructor(
    private readonly json: boolean,
    private readonly bar: ProgressBar | null,
  ) {}

  private out(line: string, to: NodeJS.WriteStream = process.stdout): void {
    if (this.bar) this.bar.log(line, to);
    else to.write(`${line}\n`);
  }

  /** A line for the person running the command (never in the JSON output). */
  note(line: string): void {
    this.out(line, process.stderr);
  }

  file(file: SourceFile, outcome: FileOutcome): void {
    this.totals.files++;
    const path = uploadPathOf(file);
    if (outcome.status === 'failed') this.totals.failed++;
    else {
      this.totals[outcome.status]++;
      this.totals.plainBytes += file.size;
    }
    if (this.json) {
      const base = { event: 'file', path, size: file.size, status: outcome.status };
      const extra =
        outcome.status === 'failed'
          ? { error: { code: outcome.code, detail: outcome.detail } }
          : outcome.status === 'stored'
            ? { id: outcome.fileId, resumed: outcome.resumedFrom !== null && outcome.resumedFrom > 0 }
            : { id: outcome.fileId };
      this.out(JSON.stringify({ ...base, ...extra }));
      return;
    }
    const shown = printablePath(path);
    if (outcome.status === 'stored') this.out(`stored ${shown} (${formatBytes(file.size)})${outcome.resumedFrom ? ', continued from an earlier run' : ''}`);
    else if (outcome.status === 'skipped') this.out(`already stored ${shown} (by an earlier run)`);
    else this.out(`FAILED ${shown}: ${outcome.detail} [${outcome.code}]`, process.stderr);
  }

  summary(seconds: number, sentBytes: number): void {
    const { files, stored, skipped, failed } = this.totals;
    const rate = seconds > 0 ? sentBytes / 1e6 / seconds : 0;
    if (this.json) {
      this.out(JSON.stringify({ event: 'summary', files, stored, skipped, failed, sent_bytes: sentBytes, seconds: Number(seconds.toFixed(3)) }));
      return;
    }
    this.out(
      `Stored ${stored + skipped} of ${files} files${skipped ? ` (${skipped} by an earlier run)` : ''}${failed ? `, ${failed} failed` : ''}: ` +
        `${formatBytes(sentBytes)} sent in ${seconds.toFixed(1)} s, ${rate.toFixed(0)} MB/s.`,
      failed ? process.stderr : process.stdout,
    );
  }
}
