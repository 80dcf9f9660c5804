// What the engine reports about a run. The controller turns these into store updates and
// notifications; the engine itself never touches React, Redux or the notifier.

export type ProcessingStatus = 'hashing' | 'encrypting' | 'pending' | 'uploading';

export type FinalOutcome =
  | { kind: 'stored'; serverId: number; sha256: string }
  | { kind: 'server-failed'; error: string }
  /** Sent, but the answer named no result for it (or was no Upload result at all). */
  | { kind: 'unreported'; error: string }
  /** The request failed for good; `code` is the error's code, `reason` the page's text. */
  | { kind: 'request-failed'; code: string; reason: string }
  /** The client-side work failed (content check, hashing, encryption); nothing was stored. */
  | { kind: 'processing-failed'; code: string; error: string; reason: string };

export interface EngineEvents {
  statusChanged(id: string, status: ProcessingStatus): void;
  /** Share of the file sent, 0..1. */
  progressed(id: string, fraction: number): void;
  waiting(id: string, waiting: boolean): void;
  /** Once per file, unless the run was stopped. */
  finished(id: string, outcome: FinalOutcome): void;
  /** The run's first bytes are about to go to the server. */
  sendingStarted(): void;
  /** A response body that is not an Upload result. */
  emptyResponse(): void;
}
