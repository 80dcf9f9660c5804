// What a run of `npm run upload` keeps so that running it again continues (docs/format.md,
// "Resuming from the command line"): per upload link one JSON file in the state directory (0700,
// files 0600; the name is a hash, so a listing shows no link token), holding
// - per large file in progress: its identity (path, size, mtime, inode), the file key and IV (the
//   file key in clear: it opens only this file, whose plaintext sits beside it on the same disk,
//   and the entry is deleted once the file is stored), the wrapped key, the tus upload URL, the
//   owner's public key fingerprint, and a SHA-256 digest of every 16 MiB segment encrypted so far;
// - per stored file its identity and file id, so a new run does not send it again.
// Writes are atomic (temporary file, fsync, rename) and serialised; one run at a time per link
// holds the lock file (a second run is refused; a lock left by a process that is gone is taken).
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { StateLockedError } from '../shared/errors.ts';

const identity = z.object({ path: z.string(), size: z.number(), mtimeMs: z.number(), ino: z.number() });
export type FileIdentity = z.infer<typeof identity>;

const resumableEntry = z.object({
  kind: z.literal('resumable'),
  identity,
  relativeDir: z.string(),
  name: z.string(),
  fileKey: z.string(),
  iv: z.string(),
  encryptedKey: z.string(),
  publicKeySha256: z.string(),
  uploadUrl: z.string().nullable(),
  /** Hex SHA-256 of each segment of plaintext encrypted so far, in order. */
  segmentDigests: z.array(z.string()),
  updatedAt: z.number(),
});
export type ResumableEntry = z.infer<typeof resumableEntry>;

const storedEntry = z.object({ kind: z.literal('stored'), identity, fileId: z.number(), updatedAt: z.number() });
export type StoredEntry = z.infer<typeof storedEntry>;

const stateFile = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), z.discriminatedUnion('kind', [resumableEntry, storedEntry])),
});
type StateFile = z.infer<typeof stateFile>;

/** The default state directory: $XDG_STATE_HOME/sealdrop-upload, else ~/.local/state/sealdrop-upload. */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'sealdrop-upload');
}

/** The key of a file's entry: its absolute path (one entry per path; another identity replaces it). */
export const entryKey = (identity: FileIdentity): string => identity.path;

export const sameIdentity = (a: FileIdentity, b: FileIdentity): boolean =>
  a.path === b.path && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

export class UploadState {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly lockFile: string,
    private readonly state: StateFile,
  ) {}

  /** Opens (and locks) the state of one upload link; entries idle longer than `forgetAfterMs` are dropped. */
  static async open(stateDir: string, linkOrigin: string, linkToken: string, forgetAfterMs: number, now = Date.now()): Promise<UploadState> {
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
    const name = createHash('sha256').update(`${linkOrigin}\n${linkToken}`).digest('hex').slice(0, 32);
    const file = path.join(stateDir, `${name}.json`);
    const lockFile = path.join(stateDir, `${name}.lock`);
    await takeLock(lockFile);
    let state: StateFile = { version: 1, entries: {} };
    try {
      const parsed = stateFile.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (parsed.success) state = parsed.data;
    } catch {
      // No state yet, or unreadable: start empty (an unreadable entry only costs a fresh upload).
    }
    for (const [key, entry] of Object.entries(state.entries)) if (now - entry.updatedAt > forgetAfterMs) delete state.entries[key];
    return new UploadState(file, lockFile, state);
  }

  get(identity: FileIdentity): ResumableEntry | StoredEntry | undefined {
    return this.state.entries[entryKey(identity)];
  }

  /** Sets (or with null removes) a file's entry and writes the state durably before resolving. */
  async put(identity: FileIdentity, entry: ResumableEntry | StoredEntry | null): Promise<void> {
    if (entry === null) delete this.state.entries[entryKey(identity)];
    else this.state.entries[entryKey(identity)] = entry;
    const snapshot = JSON.stringify(this.state);
    const write = this.writing.then(() => writeDurably(this.file, snapshot));
    this.writing = write.catch(() => undefined);
    await write;
  }

  async close(): Promise<void> {
    await this.writing;
    await rm(this.lockFile, { force: true });
  }
}

async function writeDurably(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text, { mode: 0o600 });
  const handle = await open(temp, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
}

async function takeLock(lockFile: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      const holder = Number(await readFile(lockFile, 'utf8').catch(() => 'NaN'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
        throw new StateLockedError(`Another upload to this link is running (process ${holder}); wait for it, or stop it first.`);
      }
      await rm(lockFile, { force: true });
    }
  }
  throw new StateLockedError('Could not take the lock of this link\'s upload state.');
}
