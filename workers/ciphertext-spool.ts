/**
 * The upload spool: ciphertext chunks of a tus upload written to files in the origin-private file
 * system (OPFS) by the worker that encrypts them, and sent from there as disk-backed Blobs.
 *
 * Why (measured with `npm run bench:upload`, docs/upload.md "Flat memory"): a Blob built from bytes
 * in memory (`new Blob([uint8array])`) keeps its bytes in the browser's blob storage until the page's
 * garbage collector happens to collect the Blob object, and nothing tells the collector those
 * small objects hold 16 MiB each, so the browser grew by about the upload's size (the figure is in
 * docs/upload.md), in memory or as typed-array bodies alike. A File from the OPFS is read from disk by the network
 * process itself, as a picked file is, so the page holds at most the chunk being encrypted, and the
 * files are deleted as soon as tus has moved past them.
 *
 * Layout: `upload-spool/<page id>/<chunk>`; each page holds a Web Lock named after its directory for
 * as long as it lives, so a later page deletes the directories of pages that are gone (a closed or
 * crashed tab) and never one of a page still uploading in another tab.
 *
 * No library does this (OPFS spooling for request bodies); it is three OPFS calls and a lock.
 */

import { settleWithin } from './deadline.ts';
import { whileReachable } from './keep-reachable.ts';

const SPOOL_ROOT = 'upload-spool';
const LOCK_PREFIX = 'sealdrop-upload-spool-';

/**
 * How long one OPFS call of a chunk's write or read may take, far above what opening a chunk's
 * file takes even under load (docs/upload.md, "Measurements behind the choices"); a call past this is taken as lost
 * (SpoolStalledError) and the chunk is built in memory instead (EncryptionSession.readBody), so
 * the upload goes on. The answers that never came were those of garbage-collected handles (see
 * whileReachable); the limit stays as the net under any other storage call that hangs.
 */
export const SPOOL_CALL_LIMIT_MS = 5_000;

/** What the worker needs to find a chunk's file: directory names from the OPFS root, then the file's. */
export type SpoolPath = readonly string[];

/** Why the spool did not take a write: an OPFS call never answered ('stalled', naming it), or it failed (disk or quota full). */
export interface SpoolRefusal {
  readonly reason: 'stalled' | 'failed';
  readonly call?: string;
}

/** The refusal a failed spool write means, for the page's counting of stalls (workers/small-file-spool.ts, the sessions' spool policy). */
export function spoolRefusal(error: unknown): SpoolRefusal {
  return error instanceof SpoolStalledError ? { reason: 'stalled', call: error.call } : { reason: 'failed' };
}

/** The worker's answer to a chunk for the spool: written, or the ciphertext itself and why not. */
export type SpoolOutcome = { readonly spooled: true } | ({ readonly spooled: false; readonly pieces: Uint8Array[] } & SpoolRefusal);

export class CiphertextSpool {
  private constructor(
    private readonly directory: FileSystemDirectoryHandle,
    private readonly pageId: string,
    /** The time limit of each OPFS call of a chunk, here and in the worker that writes it. */
    readonly callLimitMs: number,
  ) {}

  /**
   * The page's spool, or null where the browser has no OPFS or Web Locks here (then uploads build
   * their bodies in memory). Whether the workers can write to it is theirs to say: synchronous
   * access handles exist only in dedicated workers (spoolWritableHere, asked by the pool).
   */
  static async open(callLimitMs = SPOOL_CALL_LIMIT_MS): Promise<CiphertextSpool | null> {
    if (!spoolReachableHere()) return null;
    try {
      // Every session waits for this: a storage call that never answers must not hold them all.
      return await withinSpoolLimit(CiphertextSpool.create(callLimitMs), 'open', callLimitMs);
    } catch {
      // Storage refused or stalled (private browsing, quota, a policy): bodies in memory work everywhere.
      return null;
    }
  }

  private static async create(callLimitMs: number): Promise<CiphertextSpool> {
    const opfs = await navigator.storage.getDirectory();
    const root = await whileReachable(opfs, opfs.getDirectoryHandle(SPOOL_ROOT, { create: true }));
    const pageId = crypto.randomUUID();
    await holdLockForPageLifetime(`${LOCK_PREFIX}${pageId}`);
    await removeAbandonedPages(root);
    return new CiphertextSpool(await whileReachable(root, root.getDirectoryHandle(pageId, { create: true })), pageId, callLimitMs);
  }

  /** Where a worker writes the chunk `name` (see writeSpoolFile). */
  pathOf(name: string): SpoolPath {
    return [SPOOL_ROOT, this.pageId, name];
  }

  /** The chunk `name` as the worker wrote it: a File the browser reads from disk. */
  async file(name: string): Promise<File> {
    const handle = await withinSpoolLimit(this.directory.getFileHandle(name), 'getFileHandle', this.callLimitMs);
    return withinSpoolLimit(whileReachable(handle, handle.getFile()), 'getFile', this.callLimitMs);
  }

  /** Deletes the chunk `name`; one already gone is fine. */
  async remove(name: string): Promise<void> {
    await this.directory.removeEntry(name).catch(() => undefined);
  }
}

function spoolReachableHere(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function' && typeof navigator.locks?.request === 'function';
}

/** In a worker: whether writeSpoolFile can work here (OPFS with synchronous access handles). */
export function spoolWritableHere(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.storage?.getDirectory === 'function' &&
    typeof FileSystemFileHandle !== 'undefined' &&
    'createSyncAccessHandle' in FileSystemFileHandle.prototype
  );
}

/** Takes the lock and keeps it until the page goes away (the promise given to the lock never settles). */
function holdLockForPageLifetime(name: string): Promise<void> {
  return new Promise<void>((granted) => {
    void navigator.locks.request(name, () => {
      granted();
      return new Promise<never>(() => undefined);
    });
  });
}

async function removeAbandonedPages(root: FileSystemDirectoryHandle): Promise<void> {
  // Directories first, locks second: a page takes its lock before it creates its directory, so a
  // directory listed here belongs to a lock that the query below already sees (the other order
  // could delete the directory of a page that opened its spool in between).
  const names: string[] = [];
  for await (const name of root.keys()) names.push(name);
  const held = new Set(((await navigator.locks.query()).held ?? []).map((lock) => lock.name));
  const abandoned = names.filter((name) => !held.has(`${LOCK_PREFIX}${name}`));
  await Promise.all(abandoned.map((name) => root.removeEntry(name, { recursive: true }).catch(() => undefined)));
}

/** The part of FileSystemSyncAccessHandle used here (TypeScript's DOM library declares it only for workers). */
interface SyncAccessHandle {
  truncate(size: number): void;
  write(buffer: Uint8Array<ArrayBuffer>, options: { at: number }): number;
  close(): void;
}

/** The spool file could not be written in full (the disk or the quota is full). */
export class SpoolWriteError extends Error {
  override readonly name = 'SpoolWriteError';
  readonly code = 'SPOOL_WRITE_FAILED';
}

/** An OPFS call of the spool did not answer within its limit (SPOOL_CALL_LIMIT_MS). */
export class SpoolStalledError extends Error {
  override readonly name = 'SpoolStalledError';
  readonly code = 'SPOOL_STALLED';
  constructor(readonly call: string, limitMs: number) {
    super(`the upload spool's ${call}() did not answer within ${limitMs} ms`);
  }
}

function withinSpoolLimit<T>(work: Promise<T>, call: string, limitMs: number, late?: (value: T) => void): Promise<T> {
  return settleWithin(work, limitMs, () => new SpoolStalledError(call, limitMs), late);
}

/**
 * The worker's handles of the page directories it writes to, looked up once each: every OPFS call
 * is a round trip to the browser process, and every round trip is one more chance of an answer
 * that never comes (see SPOOL_CALL_LIMIT_MS). A failed lookup is forgotten, so the next chunk
 * tries again.
 */
const spoolDirectories = new Map<string, Promise<FileSystemDirectoryHandle>>();

function spoolDirectory(names: readonly string[], limitMs: number): Promise<FileSystemDirectoryHandle> {
  const key = names.join('/');
  let found = spoolDirectories.get(key);
  if (!found) {
    found = (async () => {
      let directory = await withinSpoolLimit(navigator.storage.getDirectory(), 'getDirectory', limitMs);
      for (const name of names) directory = await withinSpoolLimit(whileReachable(directory, directory.getDirectoryHandle(name)), 'getDirectoryHandle', limitMs);
      return directory;
    })();
    spoolDirectories.set(key, found);
    found.catch(() => spoolDirectories.delete(key));
  }
  return found;
}

/**
 * In the worker: writes `pieces` as the whole content of the file at `path` (created), through a
 * synchronous access handle (the fastest OPFS write, available only in dedicated workers).
 */
export async function writeSpoolFile(path: SpoolPath, pieces: readonly Uint8Array[], limitMs = SPOOL_CALL_LIMIT_MS): Promise<void> {
  const directory = await spoolDirectory(path.slice(0, -1), limitMs);
  const file = await withinSpoolLimit(directory.getFileHandle(path.at(-1)!, { create: true }), 'getFileHandle', limitMs);
  const opening = whileReachable(file, (file as unknown as { createSyncAccessHandle(): Promise<SyncAccessHandle> }).createSyncAccessHandle());
  // A handle that arrives after the limit holds the file's exclusive lock: release it at once.
  const handle = await withinSpoolLimit(opening, 'createSyncAccessHandle', limitMs, (late) => late.close());
  try {
    handle.truncate(0);
    let at = 0;
    for (const piece of pieces) {
      const written = handle.write(piece as Uint8Array<ArrayBuffer>, { at });
      if (written !== piece.byteLength) throw new SpoolWriteError(`wrote ${written} of ${piece.byteLength} bytes to the upload spool`);
      at += written;
    }
  } finally {
    handle.close();
  }
}
