// The persisted upload queue's logic: what the resumable lane writes at each step of a
// large file, what a later page reads back to continue it, and when entries go away.
//
// Written: before the first byte the file key, wrapped in a worker under the origin's
// non-extractable storage key (never in clear), with the IV and the format it is encrypted with;
// before each chunk leaves, the content signature of everything handed to the network; then the tus
// URL and every offset the server confirms, with the newest snapshot of the plaintext's hash within
// it. An entry whose format or length is not what this page writes is never resumed. Deleted: when the file is stored, when the user discards it, when a changed file
// takes its place, and after the server's abandon time without progress (the server has swept the
// upload by then). A journal that cannot write (storage full, private mode) only costs resuming: the
// upload itself goes on.

import type { FileKeyHandle } from '../../../../workers/index.ts';
import { DEFAULT_RECORD_SIZE, encryptedLength, FORMAT_VERSION, isCryptoError, type StoredFileKey } from '../../../../crypto/index.ts';
import type { CiphertextFormat, EncryptionSessionLike, FileIdentity, HashCheckpoint, ResumePoint, SentSignature, UploadJournal } from '../engine/enginePorts.ts';
import { cancelTusUpload } from '../transport/tusCancel.ts';
import { entryIdOf, keyContextOf, QUEUE_ENTRY_VERSION, samePlace, type DeliveredMark, type QueueEntry } from './queueEntry.ts';
import type { UploadQueueStore } from './uploadQueueStore.ts';
import type { FileSource } from './fileSource.ts';

/**
 * The server sweeps a tus upload after UPLOAD_ABANDON_HOURS without activity (default 24 h,
 * docs/operations.md) and announces its setting in the link's status (`upload_abandon_hours`). An
 * entry without progress for that long points at nothing and is purged. This default applies
 * until the page has read the status (and to a server that does not say).
 */
export const SERVER_ABANDON_MS = 24 * 60 * 60 * 1000;

/** What the journal needs of the crypto pool (workers/pool.ts). */
export interface ResumeKeyPool {
  createStorageKey(): Promise<CryptoKey>;
  exportFileKeyForStorage(key: FileKeyHandle, storageKey: CryptoKey, context: string): Promise<StoredFileKey>;
  importStoredFileKey(stored: StoredFileKey, storageKey: CryptoKey, context: string): Promise<FileKeyHandle>;
}

export interface UploadJournalDeps {
  store: UploadQueueStore;
  pool: () => ResumeKeyPool;
  cancelUpload?: (url: string) => Promise<void>;
  now?: () => number;
  /** A write that failed (the upload goes on, it just cannot be resumed). */
  onStoreFailure?: (error: unknown) => void;
  /** Where a file being opened was picked from (File System Access handles), kept in its entry. */
  sourceOf?: (file: FileIdentity) => FileSource | undefined;
  /** What this page's encryption writes (default: the format's version and DEFAULT_RECORD_SIZE); only such entries are resumed. */
  format?: CiphertextFormat;
}

/** The parameters this build encrypts with (the pool's default when no record size is asked for). */
export const CURRENT_FORMAT: CiphertextFormat = { version: FORMAT_VERSION, recordSize: DEFAULT_RECORD_SIZE };

export class PersistedUploadJournal implements UploadJournal {
  private readonly store: UploadQueueStore;
  private readonly cancelUpload: (url: string) => Promise<void>;
  private readonly now: () => number;
  private readonly onStoreFailure: (error: unknown) => void;
  private readonly format: CiphertextFormat;
  private storageKeyPromise: Promise<CryptoKey> | undefined;
  /** Writes of one entry, in call order (a confirmed offset never overtakes the entry's creation). */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(private readonly deps: UploadJournalDeps) {
    this.store = deps.store;
    this.cancelUpload = deps.cancelUpload ?? cancelTusUpload;
    this.now = deps.now ?? Date.now;
    this.onStoreFailure = deps.onStoreFailure ?? ((error) => console.warn('upload journal: could not store', error));
    this.format = deps.format ?? CURRENT_FORMAT;
  }

  // ------------------------------------------------------------ written by the resumable lane

  async discardEarlier(file: FileIdentity): Promise<void> {
    const earlier = (await this.safely(() => this.store.list(), [])).filter((entry) => samePlace(entry, file));
    await Promise.all(earlier.map((entry) => this.discard(entry.id)));
  }

  async opened(file: FileIdentity, session: EncryptionSessionLike): Promise<void> {
    const id = entryIdOf(file);
    const source = this.deps.sourceOf?.(file);
    const format: CiphertextFormat = { version: session.formatVersion, recordSize: session.recordSize };
    await this.write(id, async () => {
      const context = keyContextOf(id, session.iv, format, session.encryptedLength);
      const fileKey = await this.deps.pool().exportFileKeyForStorage(session.key, await this.storageKey(), context);
      const now = this.now();
      await this.store.put({
        version: QUEUE_ENTRY_VERSION,
        id,
        linkToken: file.linkToken,
        relativePath: file.relativePath,
        name: file.name,
        size: file.size,
        lastModified: file.lastModified,
        status: 'encrypting',
        uploadUrl: null,
        confirmedOffset: 0,
        encryptedLength: session.encryptedLength,
        format,
        iv: session.iv,
        fileKey,
        createdAt: now,
        updatedAt: now,
        ...(source ? { source } : {}),
      });
    });
  }

  sent(file: FileIdentity, signature: SentSignature): Promise<void> {
    const id = entryIdOf(file);
    const { records, digest } = signature;
    return this.write(id, () => this.store.change(id, (entry) => ({ ...entry, sentSignature: { records, digest } })));
  }

  created(file: FileIdentity, uploadUrl: string): void {
    const id = entryIdOf(file);
    // Times are taken when the event happens, not when its write gets its turn.
    const at = this.now();
    void this.write(id, () =>
      this.store.change(id, (entry) => ({
        ...entry,
        status: 'uploading',
        // A new upload (the server had lost the old one) starts at 0 again.
        confirmedOffset: entry.uploadUrl === uploadUrl ? entry.confirmedOffset : 0,
        uploadUrl,
        updatedAt: at,
      })),
    );
  }

  confirmed(file: FileIdentity, offset: number): void {
    const id = entryIdOf(file);
    const at = this.now();
    void this.write(id, () =>
      this.store.change(id, (entry) => ({
        ...entry,
        status: offset >= entry.encryptedLength ? 'sent' : 'uploading',
        confirmedOffset: offset,
        updatedAt: at,
      })),
    );
  }

  hashCheckpoint(file: FileIdentity, checkpoint: HashCheckpoint): void {
    const id = entryIdOf(file);
    const { records, state } = checkpoint;
    void this.write(id, () => this.store.change(id, (entry) => ({ ...entry, hashCheckpoint: { records, state } })));
  }

  completed(file: FileIdentity): void {
    const id = entryIdOf(file);
    void this.write(id, () => this.store.delete(id));
  }

  deliveredMany(files: readonly FileIdentity[]): void {
    if (files.length === 0) return;
    const at = this.now();
    const marks: DeliveredMark[] = files.map(({ linkToken, relativePath, name, size, lastModified }) => ({
      version: QUEUE_ENTRY_VERSION,
      id: entryIdOf({ linkToken, relativePath, name, size, lastModified }),
      linkToken,
      relativePath,
      name,
      size,
      lastModified,
      at,
    }));
    // One transaction for the answer's files (one per file cost a 2,000-file upload ~0.2 s of the
    // page's thread), still in order with every other write of each mark.
    void this.writeAll(
      marks.map((mark) => `delivered ${mark.id}`),
      () => this.store.putDelivered(marks),
    );
  }

  // ------------------------------------------------------------ read by the page

  /** Files stored by an interrupted visit to this link (while it has unfinished uploads). */
  async deliveredFiles(linkToken: string): Promise<DeliveredMark[]> {
    const marks = await this.safely(() => this.store.listDelivered(), []);
    return marks.filter((mark) => mark.linkToken === linkToken);
  }

  /**
   * A run on this link ended. With nothing unfinished left, nothing will be continued: the marks of
   * stored files go (a later selection of the same files is a new upload, as the person means it).
   */
  async runEnded(linkToken: string): Promise<void> {
    await this.settled();
    if ((await this.unfinished(linkToken)).length > 0) return;
    const marks = await this.deliveredFiles(linkToken);
    await Promise.all(marks.map((mark) => this.write(`delivered ${mark.id}`, () => this.store.deleteDelivered(mark.id))));
  }

  /**
   * The unfinished files of this link, after purging the ones the server has abandoned
   * (`abandonAfterMs`: the server's announced abandon time, else SERVER_ABANDON_MS).
   */
  async unfinished(linkToken: string, abandonAfterMs?: number): Promise<QueueEntry[]> {
    await this.purgeAbandoned(abandonAfterMs);
    const all = await this.safely(() => this.store.list(), []);
    return all.filter((entry) => entry.linkToken === linkToken).sort((a, b) => a.createdAt - b.createdAt || a.relativePath.localeCompare(b.relativePath) || a.name.localeCompare(b.name));
  }

  /** Deletes entries with no server progress for the abandon time (the sweep has removed their upload). */
  async purgeAbandoned(abandonAfterMs: number = SERVER_ABANDON_MS): Promise<void> {
    const cutoff = this.now() - abandonAfterMs;
    const all = await this.safely(() => this.store.list(), []);
    await Promise.all(all.filter((entry) => entry.updatedAt < cutoff).map((entry) => this.write(entry.id, () => this.store.delete(entry.id))));
    const marks = await this.safely(() => this.store.listDelivered(), []);
    await Promise.all(marks.filter((mark) => mark.at < cutoff).map((mark) => this.write(`delivered ${mark.id}`, () => this.store.deleteDelivered(mark.id))));
  }

  /** The user gave up on a file: the server's partial upload is cancelled and the entry deleted. */
  async discard(entryId: string): Promise<void> {
    const entry = await this.safely(() => this.store.get(entryId), undefined);
    await this.write(entryId, () => this.store.delete(entryId));
    if (entry?.uploadUrl) await this.cancelUpload(entry.uploadUrl);
  }

  /**
   * Where this exact file (same path, name, size and lastModified) was left, with its key back in
   * the pool; undefined when there is nothing to continue. An entry that cannot be continued safely
   * is discarded with its upload, and the file starts over with a fresh key and IV: one encrypted
   * with another format version or record size than this page writes, or announcing another
   * encrypted length (an app update in between, an edited entry), one written before entries kept
   * their format, and one whose key no longer opens (the origin's storage was cleared, so the
   * storage key is a new one; or the entry's parameters were altered, which the key is bound to).
   */
  async resumePointFor(file: FileIdentity): Promise<ResumePoint | undefined> {
    const entry = await this.safely(() => this.store.get(entryIdOf(file)), undefined);
    if (!entry) return undefined;
    const format = entry.format;
    if (!format || !this.writesLike(entry, format)) {
      await this.discard(entry.id);
      return undefined;
    }
    let key: FileKeyHandle;
    try {
      key = await this.deps.pool().importStoredFileKey(entry.fileKey, await this.storageKey(), keyContextOf(entry.id, entry.iv, format, entry.encryptedLength));
    } catch (error) {
      if (!isCryptoError(error, 'INTEGRITY') && !isCryptoError(error, 'MALFORMED')) throw error;
      await this.discard(entry.id);
      return undefined;
    }
    return {
      uploadUrl: entry.uploadUrl,
      key,
      iv: entry.iv,
      format: { version: format.version, recordSize: format.recordSize },
      encryptedLength: entry.encryptedLength,
      ...(entry.sentSignature ? { sent: entry.sentSignature } : {}),
      ...(entry.hashCheckpoint ? { hash: entry.hashCheckpoint } : {}),
    };
  }

  /** Whether `entry` was encrypted exactly as this page encrypts (same format, same length for its size). */
  private writesLike(entry: QueueEntry, format: CiphertextFormat): boolean {
    if (format.version !== this.format.version || format.recordSize !== this.format.recordSize) return false;
    try {
      return entry.encryptedLength === encryptedLength(entry.size, format.recordSize);
    } catch {
      return false;
    }
  }

  // ------------------------------------------------------------ internals

  private storageKey(): Promise<CryptoKey> {
    this.storageKeyPromise ??= (async () => {
      const existing = await this.store.storageKey();
      if (existing) return existing;
      return this.store.keepStorageKey(await this.deps.pool().createStorageKey());
    })();
    // A failed attempt is not cached: the next write tries again.
    this.storageKeyPromise.catch(() => (this.storageKeyPromise = undefined));
    return this.storageKeyPromise;
  }

  private write(id: string, step: () => Promise<void>): Promise<void> {
    return this.writeAll([id], step);
  }

  /** One write of several keys: after every earlier write of each of them, before every later one. */
  private writeAll(ids: readonly string[], step: () => Promise<void>): Promise<void> {
    const previous = Promise.all(ids.map((id) => this.writes.get(id)));
    const next = previous.then(step).catch((error: unknown) => this.onStoreFailure(error));
    for (const id of ids) this.writes.set(id, next);
    void next.then(() => {
      for (const id of ids) if (this.writes.get(id) === next) this.writes.delete(id);
    });
    return next;
  }

  private async safely<T>(read: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await read();
    } catch (error) {
      this.onStoreFailure(error);
      return fallback;
    }
  }

  /** Resolves once every write asked for so far has been made (tests, and before a page reads back). */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes.values()]);
  }
}
