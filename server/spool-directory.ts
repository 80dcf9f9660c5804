// Each server process spools upload chunks in a temporary directory of its own: the S3
// tus store writes every part-sized chunk of a PATCH to a file under os.tmpdir() before sending
// it, and a process killed mid-PATCH (SIGKILL, OOM) left up to four 8 MiB files there, under
// random names nothing could tell apart from other programs' files. Here os.tmpdir() becomes
// "<system temp>/sealdrop-spool/<pid>", and at start-up the directories of processes that no
// longer run on this machine are removed. Only the server's entry point calls this: it changes
// TMPDIR for the whole process.
import { mkdir, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const SPOOL_ROOT_NAME = 'sealdrop-spool';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes this process's spool directory its temp directory; returns it and the dead processes' directories removed. */
export async function useOwnSpoolDirectory(root = path.join(os.tmpdir(), SPOOL_ROOT_NAME)): Promise<{ directory: string; removed: string[] }> {
  await mkdir(root, { recursive: true });
  const removed: string[] = [];
  for (const name of await readdir(root)) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    // Our own pid's directory is from an earlier process that had the same pid: stale too.
    if (pid !== process.pid && isRunning(pid)) continue;
    await rm(path.join(root, name), { recursive: true, force: true });
    if (pid !== process.pid) removed.push(name);
  }
  const directory = path.join(root, String(process.pid));
  await mkdir(directory, { recursive: true });
  // os.tmpdir() reads these on every call (TMPDIR on POSIX, TEMP/TMP on Windows).
  process.env.TMPDIR = directory;
  process.env.TEMP = directory;
  process.env.TMP = directory;
  return { directory, removed };
}
