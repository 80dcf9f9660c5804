// One request at a time per tus upload, across every server process (defect 6). Two
// PATCHes for one upload on two processes (a client's retry while its first PATCH is still in
// flight, two tabs, a round-robin proxy) used to write concurrently: on S3 the stored bytes could
// end up out of order with both answered 204. @tus/server serialises requests only within a
// process (MemoryLocker) and documents that several processes need a shared locker.
//
// The lock is a lease row in the database (task_leases, the same conditional upsert the sweep's
// lease uses, on SQLite and PostgreSQL), taken after the in-process lock:
// - within a process the stock behaviour stays: a new request makes the holder give way (a
//   stalled PATCH does not block the client's resume);
// - across processes a request that finds the lease held is refused at once with 423 (tus
//   clients, ours included, retry it after a pause), so overlapping PATCHes never both write;
// - the lease is renewed while the request runs and released at its end; one whose process died
//   (SIGKILL) expires after LEASE_MS. A request that can no longer renew its lease (the database
//   unreachable that long) is cancelled rather than left writing without it.
// HEAD and GET only read and take no lock: a HEAD polling the offset must not make an in-flight
// PATCH give way (it did, and cancelled the PATCH at every poll).
// We chose a lease row over PostgreSQL advisory locks: an advisory lock lives on a connection,
// so every upload in flight would hold one of the pool's few connections for its whole PATCH.
import { randomBytes } from 'node:crypto';
import { MemoryLocker, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories } from '../db/repositories/index.ts';

/** A process that died while holding an upload's lease frees it after this long. */
export const UPLOAD_LEASE_MS = 15_000;
const RENEW_EVERY_MS = UPLOAD_LEASE_MS / 3;

/** The answer to a request for an upload another process is serving (tus: 423 Locked). */
export const UPLOAD_LOCKED = { status_code: 423, body: 'This upload is busy with another request; try again shortly.\n' };

const LEASE_PREFIX = 'tus:';

export function uploadLeaseName(uploadId: string): string {
  return `${LEASE_PREFIX}${uploadId}`;
}

/** Forgets upload leases of processes that died (the sweep). */
export function deleteExpiredUploadLeases(leases: Repositories['taskLeases'], now: number): Promise<number> {
  return leases.deleteExpired(LEASE_PREFIX, now);
}

const NO_LOCK: Lock = {
  async lock() {},
  async unlock() {},
};

/** Readers (HEAD, GET) lock nothing; writers take the shared lock. */
export function lockerFor(shared: Locker): (req: Request) => Locker {
  const none: Locker = { newLock: () => NO_LOCK };
  return (req) => (req.method === 'HEAD' || req.method === 'GET' ? none : shared);
}

export class SharedUploadLocker implements Locker {
  private readonly local = new MemoryLocker();

  constructor(
    private readonly leases: Repositories['taskLeases'],
    /** This process's name as a lease holder (e.g. sweepHolderName()). */
    private readonly processName: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * At shutdown: gives up every lease this process holds, so that the uploads it was serving are
   * free at once for another process (or this one restarted), not only after UPLOAD_LEASE_MS.
   */
  releaseAll(): Promise<void> {
    return this.leases.releaseAllOf(LEASE_PREFIX, `${this.processName}:`);
  }

  newLock(id: string): Lock {
    return new SharedUploadLock(uploadLeaseName(id), this.local.newLock(id), this.leases, this.processName, this.log);
  }
}

class SharedUploadLock implements Lock {
  private holder: string | null = null;
  private renewal: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly task: string,
    private readonly local: Lock,
    private readonly leases: Repositories['taskLeases'],
    private readonly processName: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.local.lock(signal, requestRelease);
    const holder = `${this.processName}:${randomBytes(4).toString('hex')}`.slice(-64);
    let taken: boolean;
    try {
      taken = await this.leases.take(this.task, holder, Date.now(), UPLOAD_LEASE_MS);
    } catch (error) {
      await this.local.unlock();
      throw error;
    }
    if (!taken) {
      await this.local.unlock();
      throw UPLOAD_LOCKED;
    }
    this.holder = holder;
    this.renewal = setInterval(() => {
      this.leases.take(this.task, holder, Date.now(), UPLOAD_LEASE_MS).then(
        (renewed) => {
          if (!renewed) this.lost(requestRelease, null);
        },
        (error: unknown) => this.lost(requestRelease, error),
      );
    }, RENEW_EVERY_MS);
    this.renewal.unref();
  }

  private lost(requestRelease: RequestRelease, error: unknown): void {
    this.log.warn({ err: error, lease: this.task }, 'an upload request lost its lease and is cancelled');
    void Promise.resolve(requestRelease()).catch(() => undefined);
  }

  async unlock(): Promise<void> {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
    const holder = this.holder;
    this.holder = null;
    try {
      if (holder) await this.leases.release(this.task, holder);
    } catch (error) {
      // It expires on its own after UPLOAD_LEASE_MS.
      this.log.warn({ err: error, lease: this.task }, 'could not release an upload lease');
    } finally {
      await this.local.unlock();
    }
  }
}
