// A small real file system for the storage suites: a tmpfs the test mounts (root only) to hold
// DATA_DIR, and a writer that fills it to its last byte the way another program would. CI runs as
// root with REQUIRE_FULL_DISK_TEST=1, so there a refused mount fails the suite instead of skipping it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const MiB = 1024 * 1024;

export interface SmallDisk {
  mountPoint: string;
  /** Why the file system could not be mounted (the suite skips), or null. */
  refused: string | null;
  freeBytes(): number;
  unmount(): void;
}

export function mountSmallDisk(sizeMiB: number, prefix: string): SmallDisk {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let refused: string | null = null;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', mountPoint], { stdio: 'pipe' });
  } catch (error) {
    refused = `mounting a tmpfs was refused: ${(error as Error).message.split('\n')[0]}`;
    fs.rmSync(mountPoint, { recursive: true, force: true });
    if (process.env.REQUIRE_FULL_DISK_TEST === '1') throw new Error(`REQUIRE_FULL_DISK_TEST=1 but ${refused}`);
  }
  return {
    mountPoint,
    refused,
    freeBytes() {
      const info = fs.statfsSync(mountPoint);
      return info.bavail * info.bsize;
    },
    unmount() {
      if (refused !== null) return;
      // Lazy: the test process may still hold a descriptor the server closes asynchronously.
      execFileSync('umount', ['-l', mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    },
  };
}

/** Fills the file system to its last byte from outside the server (a log file, another program). */
export function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'a');
  const block = Buffer.alloc(MiB);
  try {
    for (let size = MiB; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          fs.writeSync(fd, block, 0, size);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
