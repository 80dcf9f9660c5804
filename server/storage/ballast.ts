// A ballast file: room held on the data directory's file system for the admin's own work. When
// something other than uploads fills the disk (logs, another program), SQLite cannot write the
// sign-in attempt counter, a session or a delete's transaction, and the admin would be locked out
// until someone frees space by hand. The server holds DATA_DIR/.sealdrop-ballast (real blocks, not
// a sparse file); before a request is handled, when the file system has less free space than the
// ballast's size, the ballast is deleted (logged at level error), so that request and the ones after
// it have that much room; the upload write path checks too the moment it meets ENOSPC, so that
// its own clean-up (releasing its upload lease, rolling back) can write. It is written again once
// free space is back above the reserve.
import { open, rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

export const BALLAST_NAME = '.sealdrop-ballast';
const CHUNK = 1024 * 1024;

export interface Ballast {
  /** Releases the ballast when free space is below its size; writes it again when space is back. */
  check(): Promise<void>;
}

export function diskBallast(dataDir: string, sizeBytes: number, reserveBytes: number, log: FastifyBaseLogger): Ballast {
  const file = path.join(dataDir, BALLAST_NAME);
  let held = false;
  let busy: Promise<void> | null = null;

  const free = async () => {
    const info = await statfs(dataDir);
    return info.bavail * info.bsize;
  };

  const write = async () => {
    const handle = await open(file, 'w');
    try {
      const zeros = Buffer.alloc(CHUNK);
      for (let written = 0; written < sizeBytes; written += CHUNK) {
        await handle.write(zeros, 0, Math.min(CHUNK, sizeBytes - written));
      }
      // No fsync: the file system counts the blocks as used once written, which is all that matters.
      held = true;
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    } finally {
      await handle.close();
    }
  };

  const step = async () => {
    const available = await free();
    if (held && available < sizeBytes) {
      await rm(file, { force: true });
      held = false;
      log.error({ freeBytes: available, releasedBytes: sizeBytes }, 'disk full: released the ballast file so that sign-in, deletes and the sweep can write');
    } else if (!held && available > reserveBytes + sizeBytes) {
      await write();
    }
  };

  return {
    async check() {
      if (sizeBytes <= 0) return;
      // One check at a time; concurrent requests wait for the one in progress.
      busy ??= step().finally(() => {
        busy = null;
      });
      await busy;
    },
  };
}
