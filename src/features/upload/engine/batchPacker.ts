// Packs small files into multipart batches: at most MAX_BATCH_FILES files and MAX_BATCH_BYTES of
// ciphertext each (a single file larger than that still goes, alone). Pure, so the thresholds are
// unit-tested without a network.

import { MAX_BATCH_BYTES, MAX_BATCH_FILES } from './uploadLimits.ts';

export interface BatchLimits {
  maxFiles: number;
  maxBytes: number;
}

export class BatchPacker<T> {
  private batch: T[] = [];
  private bytes = 0;

  constructor(
    private readonly sizeOf: (item: T) => number,
    private readonly limits: BatchLimits = { maxFiles: MAX_BATCH_FILES, maxBytes: MAX_BATCH_BYTES },
  ) {}

  /** Adds an item; returns the batches that are now full, oldest first (none, one or two). */
  add(item: T): T[][] {
    const full: T[][] = [];
    const size = this.sizeOf(item);
    if (this.batch.length > 0 && this.bytes + size > this.limits.maxBytes) full.push(this.take());
    this.batch.push(item);
    this.bytes += size;
    if (this.batch.length >= this.limits.maxFiles) full.push(this.take());
    return full;
  }

  /** The last, partly filled batch, or null. */
  rest(): T[] | null {
    return this.batch.length > 0 ? this.take() : null;
  }

  private take(): T[] {
    const batch = this.batch;
    this.batch = [];
    this.bytes = 0;
    return batch;
  }
}
