// What the upload page reads of the persisted queue (implemented by uploadJournal.ts).
import type { FileIdentity, ResumePoint } from '../engine/enginePorts.ts';
import type { DeliveredMark, QueueEntry } from './queueEntry.ts';

/** The persisted queue as the page reads it (resume/uploadJournal.ts). */
export interface ResumeCatalogue {
  /** `abandonAfterMs`: the server's abandon time (the link status's `upload_abandon_hours`), when known. */
  unfinished(linkToken: string, abandonAfterMs?: number): Promise<QueueEntry[]>;
  discard(entryId: string): Promise<void>;
  resumePointFor(file: FileIdentity): Promise<ResumePoint | undefined>;
  deliveredFiles(linkToken: string): Promise<DeliveredMark[]>;
  runEnded(linkToken: string): Promise<void>;
}
