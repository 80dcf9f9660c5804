// The free-space reserve of the local disk store (STORAGE_RESERVE_MB, docs/operations.md): uploads
// may use the disk only down to this many free bytes, so that the database, its WAL, sign-in,
// deletes and the sweep always have room. Checked before bytes are accepted (a tus creation against
// its declared length, each PATCH and each multipart file as its bytes arrive). With the S3 store
// there is no local disk to guard: `unguardedSpace`.
//
// Parallel writers must not each count the same free bytes: a writer takes a lease and grows it
// before it writes (in grants of LEASE_GRANT_BYTES, or exactly what it needs when less is left),
// and what leases hold but have not written yet is subtracted from the room everyone sees. The
// guard is per process, which is what the disk store supports (docs/operations.md, 'Several
// processes': several processes share one disk only through S3).
import { statfs } from 'node:fs/promises';
import { StorageFullError } from './storage-errors.ts';

export interface SpaceLease {
  /** Takes room for `bytes` more before they are written; StorageFullError (taking nothing) when there is none. */
  take(bytes: number): Promise<void>;
  /** The lease's writer has now written `bytes` in all: those no longer count as promised (statfs sees them). */
  wrote(bytes: number): void;
  /** The writer is done: what the lease holds and did not write goes back. */
  release(): void;
}

export interface SpaceGuard {
  /** Refuses (StorageFullError) when storing `bytes` more would cut into the reserve. */
  ensureRoomFor(bytes: number): Promise<void>;
  /** Bytes that may still be stored before the reserve is reached, less what leases hold (Infinity without a local disk). */
  room(): Promise<number>;
  /** Free bytes on the store's file system, or null when there is no local disk (S3). */
  freeBytes(): Promise<number | null>;
  /** The reserve kept free, or null when there is no local disk (S3). */
  readonly reserveBytes: number | null;
  /** A writer's share of the room (see the header). */
  lease(): SpaceLease;
  /**
   * A write met the file system's own ENOSPC (something else filled the disk): makes room for
   * the server's own writes at once (the ballast, storage/ballast.ts), before the writer's clean-up
   * (releasing its lease row, rolling back) needs the database. Never throws.
   */
  noSpaceMet(): Promise<void>;
}

/** How much a lease takes at a time when the room allows: one statfs per 8 MiB written. */
export const LEASE_GRANT_BYTES = 8 * 1024 * 1024;

const unguardedLease: SpaceLease = {
  async take() {},
  wrote() {},
  release() {},
};

export const unguardedSpace: SpaceGuard = {
  async ensureRoomFor() {},
  async room() {
    return Number.POSITIVE_INFINITY;
  },
  async freeBytes() {
    return null;
  },
  reserveBytes: null,
  lease: () => unguardedLease,
  async noSpaceMet() {},
};

export function diskSpaceGuard(directory: string, reserveBytes: number, onNoSpace: () => Promise<void> = async () => undefined): SpaceGuard {
  // Granted to leases and not yet written: room that is promised to a writer already.
  let promised = 0;

  const freeBytes = async () => {
    const info = await statfs(directory);
    // bavail: what an unprivileged writer may use (the root-only blocks are not ours to count on).
    return info.bavail * info.bsize;
  };
  // Read `promised` after the await, in the same turn as any grant that follows: two writers whose
  // statfs calls overlap then see each other's grants.
  const room = async () => {
    const free = await freeBytes();
    return Math.max(0, free - reserveBytes - promised);
  };

  function lease(): SpaceLease {
    let granted = 0;
    let taken = 0;
    let written = 0;
    const outstanding = () => granted - Math.min(written, granted);
    return {
      async take(bytes) {
        if (taken + bytes <= granted) {
          taken += bytes;
          return;
        }
        const need = taken + bytes - granted;
        const available = await room();
        if (available < Math.max(need, 1)) throw new StorageFullError();
        const grant = Math.min(available, Math.max(need, LEASE_GRANT_BYTES));
        promised -= outstanding();
        granted += grant;
        promised += outstanding();
        taken += bytes;
      },
      wrote(bytes) {
        promised -= outstanding();
        written = bytes;
        promised += outstanding();
      },
      release() {
        promised -= outstanding();
        granted = Math.min(written, granted);
      },
    };
  }

  return {
    freeBytes,
    room,
    reserveBytes,
    async ensureRoomFor(bytes) {
      if ((await room()) < Math.max(bytes, 1)) throw new StorageFullError();
    },
    lease,
    async noSpaceMet() {
      await onNoSpace().catch(() => undefined);
    },
  };
}
