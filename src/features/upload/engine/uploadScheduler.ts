// One upload run: splits the files by size into the two lanes and runs both at the same time.
// Small files (<= SMALL_FILE_MAX_BYTES) go to the batch lane, which bounds its own concurrency
// (files being encrypted, batches on the wire); large files go to the resumable lane, at most
// LARGE_FILES_AT_ONCE at a time, started in queue order. Everything the page shows comes out
// through the run's events; nothing here touches React, Redux or timers for pacing.

import { BatchLane } from './batchLane.ts';
import { forEachConcurrent } from './concurrency.ts';
import type { UploadFile, UploadJournal, UploadTransport } from './enginePorts.ts';
import { ResumableLane } from './resumableLane.ts';
import type { EngineEvents } from './runEvents.ts';
import { RunContext, type RunSettings } from './runContext.ts';
import { hashPlacementFor, LARGE_FILES_AT_ONCE, SMALL_FILE_MAX_BYTES } from './uploadLimits.ts';

export interface SchedulerOptions extends RunSettings {
  transport: UploadTransport;
  journal: UploadJournal;
}

export class UploadScheduler {
  private readonly batches: BatchLane;
  private readonly resumable: ResumableLane;
  private readonly poolSize: number;

  constructor(options: SchedulerOptions, events: EngineEvents) {
    const run = new RunContext(options, events);
    this.poolSize = options.pool.size;
    this.batches = new BatchLane(run, options.transport);
    this.resumable = new ResumableLane(run, options.transport, options.journal);
  }

  async run(files: readonly UploadFile[]): Promise<void> {
    const small = files.filter((file) => file.size <= SMALL_FILE_MAX_BYTES);
    const large = files.filter((file) => file.size > SMALL_FILE_MAX_BYTES);
    const hashPlacement = hashPlacementFor(Math.min(LARGE_FILES_AT_ONCE, large.length), this.poolSize);
    await Promise.all([this.batches.send(small), forEachConcurrent(large, LARGE_FILES_AT_ONCE, (file) => this.resumable.send(file, hashPlacement))]);
  }
}
