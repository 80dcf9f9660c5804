// What the upload page reads of the persisted queue (implemented by uploadJournal.ts).
import type { FileIdentity, ResumePoint } from '../engine/enginePorts.ts';
import type { DeliveredMark, QueueEntry } from './queueEntry.ts';

/** The persisted queue as the page reads it (resume/uploadJournal.ts). */
export interface ResumeCatalogue {
  unfinished(linkToken: string): Promise<QueueEntry[]>;
  discard(entryId: string): Promise<void>;
  resumePointFor(file: FileIdentity): Promise<ResumePoint | undefined>;
  deliveredFiles(linkToken: string): Promise<DeliveredMark[]>;
  runEnded(linkToken: string): Promise<void>;
}
