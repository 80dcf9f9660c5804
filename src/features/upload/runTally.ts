// What one run's engine events do on the page: each file's row (through the progress reporter,
// which batches them into the store), the counts that decide the run's outcome messages
// (runOutcome.ts), the files stored for the receipt, and the per-file toasts of processing
// failures (the first few of a run; the rest show in their rows only).

import type { EngineEvents, FinalOutcome, ProcessingStatus } from './engine/runEvents.ts';
import type { ProgressReporter } from './progressReporter.ts';
import type { StoredFile } from './receiptEntries.ts';
import { emptyRunCounts, type RunCounts, type ToastVariant } from './runOutcome.ts';
import { RUN_MESSAGES, processingFailedToast } from '../../lib/userTexts.ts';

/** Per-file processing failures toasted per run; the rest show in their rows only. */
export const PROCESSING_TOASTS_PER_RUN = 3;

export interface TallyFile {
  id: string;
  name: string;
  relativePath: string;
  size: number;
}

export type ShowToast = (variant: ToastVariant, message: string) => void;

export class RunTally implements EngineEvents {
  readonly counts: RunCounts;
  readonly stored: StoredFile[] = [];
  private readonly byId: Map<string, TallyFile>;
  private processedOk = 0;
  private toastedFailures = 0;
  private warnedPartial = false;

  constructor(
    files: readonly TallyFile[],
    private readonly reporter: ProgressReporter,
    private readonly toast: ShowToast,
    private readonly onSendingStarted: () => void,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.counts = emptyRunCounts(files.length);
    this.byId = new Map(files.map((file) => [file.id, file]));
  }

  statusChanged(id: string, status: ProcessingStatus): void {
    if (status === 'pending') {
      this.processedOk++;
      this.warnPartial();
    }
    this.reporter.change(id, { status });
  }

  progressed(id: string, fraction: number): void {
    this.reporter.progress(id, fraction);
  }

  waiting(id: string, waiting: boolean): void {
    this.reporter.change(id, { waitingForNetwork: waiting });
  }

  sendingStarted(): void {
    this.onSendingStarted();
  }

  emptyResponse(): void {
    this.counts.emptyResponse = true;
  }

  finished(id: string, outcome: FinalOutcome): void {
    const file = this.byId.get(id)!;
    const { counts, reporter } = this;
    switch (outcome.kind) {
      case 'stored':
        counts.stored++;
        this.stored.push({ id, name: file.name, relativePath: file.relativePath, size: file.size, uploadedAt: this.now().toISOString() });
        reporter.finish(id, { status: 'success', error: null, fileHash: outcome.sha256, serverId: outcome.serverId }, true);
        return;
      case 'server-failed':
        counts.serverFailed++;
        reporter.finish(id, { status: 'error', error: outcome.error }, false);
        return;
      case 'unreported':
        counts.unreported++;
        reporter.finish(id, { status: 'error', error: outcome.error }, false);
        return;
      case 'request-failed':
        counts.requestFailed++;
        counts.requestFailureReason ??= outcome.reason;
        reporter.finish(id, { status: 'error', error: RUN_MESSAGES.requestFailedFile }, false);
        return;
      case 'processing-failed':
        counts.processingFailed++;
        reporter.finish(id, { status: 'error', error: outcome.error }, false);
        if (this.toastedFailures++ < PROCESSING_TOASTS_PER_RUN) this.toast('error', processingFailedToast(file.name, outcome.reason));
        this.warnPartial();
        return;
    }
  }

  /** Once per run, as soon as some files failed processing and others made it. */
  private warnPartial(): void {
    if (this.warnedPartial || this.counts.processingFailed === 0 || this.processedOk === 0) return;
    this.warnedPartial = true;
    this.toast('warning', RUN_MESSAGES.someProcessingFailed);
  }
}
