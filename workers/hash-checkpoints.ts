/**
 * Snapshots of a file's SHA-256 state at record boundaries, so that an upload resumed after a
 * reload hashes only the records after the last snapshot instead of the whole file again
 * (docs/upload.md, "Laptop realities"). A snapshot is hash-wasm's saved state (116 bytes), taken
 * every CHECKPOINT_PLAIN_BYTES of plaintext; only the last CHECKPOINTS_KEPT are kept, which covers
 * how far the server's confirmed offset can trail the hashing (see CHECKPOINTS_KEPT).
 */

/** Plaintext between snapshots: a resumed file hashes at most this much again before its checkpoint. */
export const CHECKPOINT_PLAIN_BYTES = 16 * 1024 * 1024;
/**
 * 256 MiB of snapshots: the hashing runs ahead of the server's confirmed offset by the chunk on the
 * wire and the one read ahead (2 x TUS_CHUNK_BYTES, transport/tusUpload.ts) plus the records read
 * ahead, and a snapshot within the confirmed offset must still be kept.
 */
export const CHECKPOINTS_KEPT = 16;
/** SHA-256 block size: a snapshot is taken only where no partial block is buffered. */
const SHA256_BLOCK = 64;

export interface HashCheckpoint {
  /** Records [0, records) are hashed into `state`. */
  readonly records: number;
  readonly state: Uint8Array;
}

/**
 * Records between snapshots for this record size; 0 (no snapshots) when a record is not a whole
 * number of SHA-256 blocks: a saved state then holds buffered plaintext bytes, and snapshots are
 * stored in IndexedDB in clear (at whole blocks the state is the chaining value and the length).
 */
export function checkpointInterval(recordSize: number, plainBytes: number = CHECKPOINT_PLAIN_BYTES): number {
  if (recordSize % SHA256_BLOCK !== 0) return 0;
  return Math.max(1, Math.floor(plainBytes / recordSize));
}

export class HashCheckpoints {
  private readonly kept: HashCheckpoint[] = [];

  /** `every`: records between snapshots (0: none). */
  constructor(readonly every: number) {}

  /** Whether a snapshot is due after `records` records have been hashed. */
  due(records: number): boolean {
    return this.every > 0 && records > 0 && records % this.every === 0;
  }

  add(checkpoint: HashCheckpoint): void {
    const newest = this.kept[this.kept.length - 1];
    if (newest && newest.records >= checkpoint.records) return;
    this.kept.push(checkpoint);
    if (this.kept.length > CHECKPOINTS_KEPT) this.kept.shift();
  }

  /** The newest snapshot that covers at most `maxRecords` records, or null. */
  latestWithin(maxRecords: number): HashCheckpoint | null {
    for (let i = this.kept.length - 1; i >= 0; i--) {
      if (this.kept[i]!.records <= maxRecords) return this.kept[i]!;
    }
    return null;
  }
}
