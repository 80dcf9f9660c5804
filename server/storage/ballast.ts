// A ballast file: room held on the data directory's file system for the admin's own work. When
// something other than uploads fills the disk (logs, another program), SQLite cannot write the
// sign-in attempt counter, a session or a delete's transaction, and the admin would be locked out
// until someone frees space by hand. The server holds DATA_DIR/.sealdrop-ballast (real blocks, not
// a sparse file); before a request is handled and before the sweep runs, when the file system has
// less free space than the ballast's size, the ballast is deleted (logged at level error), so that
// work has that much room; the upload write path checks too the moment it meets ENOSPC, so that
// its own clean-up (releasing its upload lease, rolling back) can write. It is written again once
// free space is back above the reserve.
//
// Whether the ballast is held is read from the file system on every check, never remembered: a
// server that starts finds the ballast an earlier run (or another process on the same directory)
// wrote, and releases it like its own. It is written under a temporary name and renamed into
// place, so a ballast that exists is whole; temporary files a crash left are ballast too, and go
// with it when it is released.
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

export const BALLAST_NAME = '.sealdrop-ballast';
const PARTIAL_PREFIX = `${BALLAST_NAME}.partial-`;
const CHUNK = 1024 * 1024;

export interface Ballast {
  /** Releases the ballast when free space is below its size; writes it again when space is back. */
  check(): Promise<void>;
}

export function diskBallast(dataDir: string, sizeBytes: number, reserveBytes: number, log: FastifyBaseLogger): Ballast {
  const file = path.join(dataDir, BALLAST_NAME);
  let busy: Promise<void> | null = null;

  const free = async () => {
    const info = await statfs(dataDir);
    return info.bavail * info.bsize;
  };

  const held = async () => {
    try {
      return (await stat(file)).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  };

  const partials = async () => (await readdir(dataDir)).filter((name) => name.startsWith(PARTIAL_PREFIX)).map((name) => path.join(dataDir, name));

  const write = async () => {
    const partial = `${file}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
    const handle = await open(partial, 'wx');
    try {
      const zeros = Buffer.alloc(CHUNK);
      for (let written = 0; written < sizeBytes; written += CHUNK) {
        await handle.write(zeros, 0, Math.min(CHUNK, sizeBytes - written));
      }
      // No fsync: the file system counts the blocks as used once written, which is all that matters.
      await handle.close();
      // Another process may have put one in place meanwhile: this one replaces it, and its blocks go back.
      await rename(partial, file);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    }
  };

  const release = async (available: number) => {
    const files = [...((await held()) ? [file] : []), ...(await partials())];
    if (files.length === 0) return;
    await Promise.all(files.map((name) => rm(name, { force: true })));
    log.error({ freeBytes: available, releasedBytes: sizeBytes }, 'disk full: released the ballast file so that sign-in, deletes and the sweep can write');
  };

  const step = async () => {
    const available = await free();
    if (available < sizeBytes) {
      await release(available);
    } else if (available > reserveBytes + sizeBytes && !(await held())) {
      await write();
    }
  };

  return {
    async check() {
      if (sizeBytes <= 0) return;
      // One check at a time in a process; concurrent requests wait for the one in progress.
      busy ??= step().finally(() => {
        busy = null;
      });
      await busy;
    },
  };
}
