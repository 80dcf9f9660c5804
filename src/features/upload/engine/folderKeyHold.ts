// A team folder's upload names the folder key's epoch it sealed to; after a member's removal the
// server refuses an older one with FOLDER_KEY_CHANGED (docs/team-folders.md) before storing
// anything. Such a file has not failed: the run holds its outcome back, fetches the new key and
// sends it once more (uploadController.ts). Everything else passes through unchanged.
import type { EngineEvents, FinalOutcome, ProcessingStatus } from './runEvents.ts';

export const FOLDER_KEY_CHANGED = 'FOLDER_KEY_CHANGED';

export class FolderKeyHold implements EngineEvents {
  /** Files refused for an old epoch, in the order they were refused. */
  readonly held: string[] = [];

  constructor(private readonly inner: EngineEvents) {}

  statusChanged(id: string, status: ProcessingStatus): void {
    this.inner.statusChanged(id, status);
  }

  progressed(id: string, fraction: number): void {
    this.inner.progressed(id, fraction);
  }

  waiting(id: string, waiting: boolean): void {
    this.inner.waiting(id, waiting);
  }

  finished(id: string, outcome: FinalOutcome): void {
    if (outcome.kind === 'request-failed' && outcome.code === FOLDER_KEY_CHANGED) {
      this.held.push(id);
      return;
    }
    this.inner.finished(id, outcome);
  }

  sendingStarted(): void {
    this.inner.sendingStarted();
  }

  emptyResponse(): void {
    this.inner.emptyResponse();
  }
}
