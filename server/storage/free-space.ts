// The free-space reserve of the local disk store (STORAGE_RESERVE_MB, docs/operations.md): uploads
// may use the disk only down to this many free bytes, so that the database, its WAL, sign-in,
// deletes and the sweep always have room. Checked before bytes are accepted (a tus creation against
// its declared length, each PATCH and each multipart file as its bytes arrive). With the S3 store
// there is no local disk to guard: `unguardedSpace`.
//
// Parallel writers must not each count the same free bytes, whichever process they run in: a
// writer takes a lease and grows it before it writes (in grants of LEASE_GRANT_BYTES, or exactly
// what it needs when less is left), and what the leases of every process hold but have not written
// yet is subtracted from the room everyone sees. Leases are claims in the database
// (repositories/disk-space-claims.ts), granted one at a time across processes, each against the
// free space measured in its turn. A claim says what its writer had left at its last grant: bytes
// written since are counted twice (on the disk and in the claim) until the next grant, which only
// ever makes the room look smaller. A claim lives CLAIM_TTL_MS after its writer last renewed it
// (every CLAIM_RENEW_MS while it writes), so a process that died holds room no longer than that.
import { randomUUID } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { StorageFullError } from './storage-errors.ts';

export interface SpaceLease {
  /** Takes room for `bytes` more before they are written; StorageFullError (taking nothing) when there is none. */
  take(bytes: number): Promise<void>;
  /** The lease's writer has now written `bytes` in all: those no longer count as promised (statfs sees them). */
  wrote(bytes: number): void;
  /** The writer is done: what the lease holds and did not write goes back. Never throws. */
  release(): Promise<void>;
}

/** Where leases are kept so that every process sees them (repositories/disk-space-claims.ts). */
export interface SpaceClaims {
  /** Bytes the live claims of every writer hold. */
  claimed(now: number): Promise<number>;
  /**
   * In this claim's turn among all processes: `decide` gets what the other claims hold and
   * answers the bytes claim `id` should hold from now on, or null to refuse (false, nothing changed).
   */
  claim(id: string, now: number, expiresAt: number, decide: (claimedByOthers: number) => Promise<number | null>): Promise<boolean>;
  release(id: string): Promise<void>;
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

/** How much a lease takes at a time when the room allows (a quarter of the room when less): one grant (a statfs, a transaction) per 8 MiB written. */
export const LEASE_GRANT_BYTES = 8 * 1024 * 1024;
/** A claim not renewed for this long no longer counts: the bound on room held by a process that died. */
export const CLAIM_TTL_MS = 2 * 60_000;
/** A writer renews its claim after this long, with its next piece. */
export const CLAIM_RENEW_MS = 30_000;

const unguardedLease: SpaceLease = {
  async take() {},
  wrote() {},
  async release() {},
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

export interface DiskSpaceGuardOptions {
  /** Where the leases of every process are kept. */
  claims: SpaceClaims;
  /** The real clock (claims are shared with other processes). */
  clock?: () => number;
  /** A write met ENOSPC: make room for the server's own writes (the ballast). */
  onNoSpace?: () => Promise<void>;
}

export function diskSpaceGuard(directory: string, reserveBytes: number, options: DiskSpaceGuardOptions): SpaceGuard {
  const { claims, clock = Date.now, onNoSpace = async () => undefined } = options;

  const freeBytes = async () => {
    const info = await statfs(directory);
    // bavail: what an unprivileged writer may use (the root-only blocks are not ours to count on).
    return info.bavail * info.bsize;
  };
  // Claims whose removal failed (the database's disk was full at that moment): removed at the next
  // chance, before the room is counted, rather than holding room until they lapse.
  const unreleased = new Set<string>();
  const removeUnreleased = async () => {
    for (const id of unreleased) {
      try {
        await claims.release(id);
      } catch {
        return;
      }
      unreleased.delete(id);
    }
  };
  const room = async () => {
    await removeUnreleased();
    const [free, claimed] = await Promise.all([freeBytes(), claims.claimed(clock())]);
    return Math.max(0, free - reserveBytes - claimed);
  };

  function lease(): SpaceLease {
    const id = randomUUID();
    let granted = 0;
    let taken = 0;
    let written = 0;
    let claimedAt: number | null = null;
    const outstanding = () => Math.max(0, granted - written);
    return {
      async take(bytes) {
        const now = clock();
        const fresh = claimedAt !== null && now - claimedAt < CLAIM_RENEW_MS;
        if (taken + bytes <= granted && fresh) {
          taken += bytes;
          return;
        }
        const need = Math.max(0, taken + bytes - granted);
        // A claim not renewed in time may have lapsed: its bytes must then fit again.
        const lapsed = claimedAt !== null && now - claimedAt >= CLAIM_TTL_MS;
        let grant = 0;
        await removeUnreleased();
        const stored = await claims.claim(id, now, now + CLAIM_TTL_MS, async (claimedByOthers) => {
          const available = (await freeBytes()) - reserveBytes - claimedByOthers - outstanding();
          if (need === 0) return lapsed && available < 0 ? null : outstanding();
          if (available < need) return null;
          // Near the reserve a writer takes a quarter of what is left, not a whole grant, so that
          // parallel writers each get a share instead of the first taking all of it.
          grant = Math.min(available, Math.max(need, Math.min(LEASE_GRANT_BYTES, Math.floor(available / 4))));
          return outstanding() + grant;
        });
        if (!stored) throw new StorageFullError();
        claimedAt = now;
        granted += grant;
        taken += bytes;
      },
      wrote(bytes) {
        written = bytes;
      },
      async release() {
        granted = Math.min(written, granted);
        if (claimedAt === null) return;
        claimedAt = null;
        await claims.release(id).catch(() => unreleased.add(id));
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
