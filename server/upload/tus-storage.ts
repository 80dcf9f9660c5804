// Where the tus server keeps upload bytes, for each kind of blob store. Either way a tus upload
// `id` becomes the blob "uploads/<id>" with no copy, and the upload's other state (folder, names,
// sizes, activity) is a database row (upload_sessions), so any process continues any upload.
//
// - disk: @tus/file-store writes DATA_DIR/blobs/uploads/<id>; the offset is the file's size. A
//   completed upload is made durable (fsync of the files and their directory) before its record.
// - s3: @tus/s3-store writes the bytes as a multipart upload on the object "uploads/<id>", each
//   PATCH adding parts (a tail shorter than S3's 5 MiB minimum part waits in "uploads/<id>.part",
//   kept until its bytes are stored again: s3-tail-store.ts), and keeps the multipart upload's
//   id in "uploads/<id>.info". The offset is what S3 lists, so
//   every process sees the same one. The last PATCH completes the multipart upload: only then does
//   the object "uploads/<id>" exist, and only then can the upload become a file record.
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import type { S3Store } from '@tus/s3-store';
import { ERRORS, type DataStore, type KvStore, type Upload } from '@tus/server';
import { TUS_UPLOAD_ID_PATTERN } from '../../contract/upload.ts';
import type { Repositories } from '../db/repositories/index.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { SpaceGuard } from '../storage/free-space.ts';
import { isNoSpaceError, NoSpaceWriteError, StorageFullError } from '../storage/storage-errors.ts';
import { PART_BYTES } from '../storage/s3-blob-store.ts';
import { addDeleteObjectsContentMd5, s3ClientConfig, type S3StoreConfig } from '../storage/s3-client.ts';
import { GatheringWriter } from './gathering-writer.ts';
import { isMissingUpload, isNotFound, TailSafeS3Store } from './s3-tail-store.ts';
import { UploadSessionKvStore } from './tus-session-store.ts';

/** Where tus uploads live among the blobs; a tus upload `id` is the blob `uploads/<id>`. */
export const TUS_BLOB_PREFIX = 'uploads';
/** The S3 store's companions of an upload's object: its state and its short tail. */
const SIDECAR_SUFFIXES = ['.info', '.part'] as const;

/** Whether `id` can name a tus upload (the contract's pattern); anything else names none. */
export function isTusUploadId(id: string): boolean {
  return TUS_UPLOAD_ID_PATTERN.test(id);
}

export function tusBlobKey(uploadId: string): string {
  return `${TUS_BLOB_PREFIX}/${uploadId}`;
}

/**
 * The upload a stored key belongs to, for the sweep: "uploads/<id>" and its sidecars
 * "uploads/<id>.info" / ".part" belong to upload <id>; `sidecar` says which kind it is.
 */
export function tusUploadOf(key: string): { id: string; sidecar: boolean } | null {
  if (!key.startsWith(`${TUS_BLOB_PREFIX}/`)) return null;
  const name = key.slice(TUS_BLOB_PREFIX.length + 1);
  for (const suffix of SIDECAR_SUFFIXES) {
    if (name.endsWith(suffix)) return { id: name.slice(0, -suffix.length), sidecar: true };
  }
  return { id: name, sidecar: false };
}

export interface TusStorage {
  datastore: DataStore;
  /** Bytes of upload `id` stored so far (its full length once it can be completed). */
  storedLength(id: string, uploadLength: number): Promise<number>;
  /** Makes the bytes of these completed uploads durable, before their records are committed. */
  makeDurable(ids: readonly string[]): Promise<void>;
  /** After the records are committed: removes what the store kept only while uploading. */
  afterCompleted(ids: readonly string[]): Promise<void>;
  /** Removes everything of an abandoned upload: its bytes and the store's state of it. */
  discard(id: string): Promise<void>;
  /** Releases connections at shutdown. */
  close(): Promise<void>;
}

/**
 * The file store with two changes:
 * - create(): the stock one re-creates the store's directory for every upload, which for small
 *   files costs about as much as the rest of the creation. Upload ids are flat names (32 hex
 *   digits, generated here) in one directory created at start-up.
 * - write(): what a PATCH brought is on disk (fdatasync) before the PATCH is answered with its new
 *   offset, also when the request broke off half-way (the next HEAD reports the file's size): an
 *   offset the server has reported survives a crash of the machine, not only of the process. The
 *   stock write() leaves the bytes in the page cache and counts them through an extra Transform.
 */
class FlatFileStore extends FileStore {
  constructor(
    options: ConstructorParameters<typeof FileStore>[0],
    private readonly space: SpaceGuard,
  ) {
    super(options);
  }

  override async create(upload: Upload): Promise<Upload> {
    const file = path.join(this.directory, upload.id);
    try {
      await writeFile(file, '');
    } catch (error) {
      // The creation hook recorded the session (and took its size from the folder's limits): a
      // creation that fails here gives both back at once instead of at the sweep.
      await this.configstore.delete(upload.id).catch(() => undefined);
      throw error;
    }
    await this.configstore.set(upload.id, upload);
    upload.storage = { type: 'file', path: file };
    return upload;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    // Each piece takes its room from the reserve's lease before it is written (free-space.ts), so
    // parallel PATCHes never count the same free bytes; the bytes up to a refusal are kept, and
    // the upload resumes from that offset once space is back.
    const lease = this.space.lease();
    const handle = await open(path.join(this.directory, id), 'r+');
    const writer = new GatheringWriter(handle, offset);
    let failure: unknown = null;
    try {
      for await (const piece of readable) {
        // Once refused, the rest of the body is read and dropped rather than left unread: leaving
        // the loop would destroy the request stream, and tus would answer 400 "Request aborted"
        // instead of this refusal.
        if (failure !== null) continue;
        const chunk = piece as Buffer;
        try {
          await lease.take(chunk.length);
          await writer.add(chunk);
          lease.wrote(writer.position - offset);
        } catch (error) {
          failure = error;
        }
      }
    } catch (error) {
      failure ??= error;
    }
    try {
      await writer.finish();
    } catch (error) {
      failure ??= error;
    } finally {
      // The file system itself is full: room (the ballast) for the lease's release and the log first.
      if (failure !== null && isNoSpaceError(failure) && !(failure instanceof StorageFullError)) await this.space.noSpaceMet();
      await lease.release();
      await handle.close().catch((error: unknown) => {
        failure ??= error;
      });
    }
    if (failure !== null && isNoSpaceError(failure)) {
      if (failure instanceof StorageFullError) throw failure;
      throw new NoSpaceWriteError(failure);
    }
    // As the stock store: a broken request is the client's to resume, from the size now on disk.
    if (failure !== null) throw ERRORS.FILE_WRITE_ERROR;
    return writer.position;
  }
}

// fsyncs in flight at once: enough to overlap the disk's latency, few enough to stay polite.
const SYNC_CONCURRENCY = 16;

async function fsync(file: string, what: 'all' | 'data' = 'all'): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await (what === 'data' ? handle.datasync() : handle.sync());
  } finally {
    await handle.close();
  }
}

export function diskTusStorage(blobRoot: string, blobs: BlobStore, repos: Repositories, space: SpaceGuard): TusStorage {
  const directory = path.join(blobRoot, TUS_BLOB_PREFIX);
  const datastore = new FlatFileStore({ directory, configstore: new UploadSessionKvStore(repos.uploadSessions) }, space);
  return {
    datastore,
    async storedLength(id) {
      return (await blobs.stat(tusBlobKey(id)))?.size ?? 0;
    },
    async makeDurable(ids) {
      if (ids.length === 0) return;
      for (let i = 0; i < ids.length; i += SYNC_CONCURRENCY) {
        await Promise.all(ids.slice(i, i + SYNC_CONCURRENCY).map((id) => fsync(path.join(directory, id))));
      }
      await fsync(directory);
    },
    async afterCompleted() {
      // The file is the blob; nothing else was kept.
    },
    async discard(id) {
      await blobs.delete(tusBlobKey(id));
    },
    async close() {},
  };
}

/** Upload state cached per process: immutable once written (size, metadata, multipart upload id). */
class BoundedCache<T> implements KvStore<T> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly limit: number) {}
  async get(key: string): Promise<T | undefined> {
    return this.entries.get(key);
  }
  async set(key: string, value: T): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }
  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
  async list(): Promise<string[]> {
    return [...this.entries.keys()];
  }
}

interface KeyedInput {
  Key?: string;
  Delete?: { Objects?: Array<{ Key?: string }> };
}

/**
 * @tus/s3-store names objects by the bare upload id; this one puts them under "uploads/", as the
 * disk store does, by prefixing every key its client sends.
 */
class PrefixedS3Store extends TailSafeS3Store {
  constructor(options: ConstructorParameters<typeof S3Store>[0]) {
    super(options);
    const prefix = `${TUS_BLOB_PREFIX}/`;
    const prefixed = (key: string | undefined) => (key === undefined || key.startsWith(prefix) ? key : `${prefix}${key}`);
    this.client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as KeyedInput;
        if (input.Key !== undefined) input.Key = prefixed(input.Key);
        for (const object of input.Delete?.Objects ?? []) object.Key = prefixed(object.Key);
        return next(args);
      },
      { step: 'initialize', name: 'sealdropTusKeyPrefix' },
    );
    addDeleteObjectsContentMd5(this.client);
  }

  closeClient(): void {
    this.client.destroy();
  }

  /**
   * Completes an upload whose every byte is stored as parts but whose multipart upload was never
   * completed: the process serving its last PATCH died between storing the last part and the
   * completion (found under load). HEAD then reports the full length, so the client
   * sends nothing more; without this, no request could ever finish it. True when the object is
   * now whole (also when it already was).
   */
  async completeIfAllPartsStored(id: string): Promise<boolean> {
    const metadata = await this.getMetadata(id);
    const size = metadata.file.size;
    if (size === undefined) return false;
    let stored;
    try {
      stored = await this.storedBytes(id);
    } catch (error) {
      // Completed (or aborted) meanwhile: whole if the object is there.
      if (isMissingUpload(error)) return (await this.objectSize(id)) === size;
      throw error;
    }
    // A tail still in the ".part" object is not a part yet: the bytes are not all in parts.
    if (stored.partBytes !== size || stored.tailBytes > 0) return false;
    await this.finishMultipartUpload(metadata, stored.parts);
    await this.completeMetadata(metadata.file);
    await this.clearCache(id);
    return true;
  }

  /**
   * Two requests may complete one upload at once (its last PATCH and a repair above): the one
   * that finds the multipart upload already completed into a whole object has nothing left to do.
   */
  protected override async finishMultipartUpload(metadata: Parameters<S3Store['finishMultipartUpload']>[0], parts: Parameters<S3Store['finishMultipartUpload']>[1]): Promise<string | undefined> {
    try {
      return await super.finishMultipartUpload(metadata, parts);
    } catch (error) {
      if (isMissingUpload(error) && (await this.objectSize(metadata.file.id)) === metadata.file.size) return undefined;
      throw error;
    }
  }

  private async objectSize(id: string): Promise<number | undefined> {
    try {
      return (await this.client.headObject({ Bucket: this.bucket, Key: id })).ContentLength;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

export function s3TusStorage(config: S3StoreConfig, blobs: BlobStore): TusStorage {
  const datastore = new PrefixedS3Store({
    partSize: PART_BYTES,
    // Parts are uploaded as they arrive; a few at a time per process is plenty on one link.
    maxConcurrentPartUploads: 8,
    cache: new BoundedCache(1000),
    s3ClientConfig: { ...s3ClientConfig(config), bucket: config.bucket },
  });
  const removeSidecars = async (id: string) => {
    for (const suffix of SIDECAR_SUFFIXES) await blobs.delete(`${tusBlobKey(id)}${suffix}`);
  };
  return {
    datastore,
    async storedLength(id, uploadLength) {
      const object = await blobs.stat(tusBlobKey(id));
      if (object) return object.size;
      // Every byte stored but never completed (a process died in between): complete it now, so
      // that what HEAD reported (the full length) is what completion accepts.
      try {
        if (await datastore.completeIfAllPartsStored(id)) return (await blobs.stat(tusBlobKey(id)))?.size ?? 0;
      } catch (error) {
        if (error !== ERRORS.FILE_NOT_FOUND && !isMissingUpload(error)) throw error;
      }
      // Not completed: report how far it got (for the completion's message).
      try {
        const upload = await datastore.getUpload(id);
        return Math.max(0, Math.min(upload.offset, uploadLength - 1));
      } catch {
        return 0;
      }
    },
    async makeDurable() {
      // S3 acknowledged the completed multipart upload only once it was stored.
    },
    async afterCompleted(ids) {
      await Promise.all(ids.map((id) => removeSidecars(id).catch(() => undefined)));
    },
    async discard(id) {
      try {
        await datastore.remove(id);
      } catch (error) {
        if (error !== ERRORS.FILE_NOT_FOUND) throw error;
      }
      await blobs.delete(tusBlobKey(id));
      await removeSidecars(id);
    },
    async close() {
      datastore.closeClient();
    },
  };
}
