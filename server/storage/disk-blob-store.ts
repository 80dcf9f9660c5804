import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { listDiskBlobs } from './disk-blob-listing.ts';
import { DirectorySync } from './directory-sync.ts';
import { writeStreamClosed } from './write-stream-closed.ts';
import {
  BlobStoreError,
  checkBlobKey,
  type BlobReader,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type PutOptions,
  type StoredEntry,
} from './blob-store.ts';

/**
 * Bytes per read of a blob streamed by get() (exports, copies between stores; a download reads
 * through openReader into buffers it reuses, server/files/recycled-blob-body.ts). Node's default
 * (64 KiB) made the server's side of a 1 GiB download cost seconds of CPU in per-chunk work alone
 * (docs/operations.md, "The efficiency targets").
 */
const BLOB_READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Blobs as files under one directory. A put writes a temporary file beside the target, fsyncs it,
 * renames it into place and fsyncs the directory, so a blob that `put` reported is on disk even
 * after a crash, and a half-written one is never visible under its key.
 *
 * Many small puts at once (a multipart batch of 100 files) share their directory fsyncs
 * (directory-sync.ts), and a directory is created once per process rather than at every put:
 * both were a large part of the server's time per small file (docs/upload.md, Measurements).
 */
export class DiskBlobStore implements BlobStore {
  private readonly directories = new Set<string>();
  private readonly directorySync = new DirectorySync(fsyncPath);

  constructor(readonly root: string) {}

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<BlobInfo> {
    const target = this.pathOf(key);
    const directory = dirname(target);
    if (!this.directories.has(directory)) {
      await mkdir(directory, { recursive: true });
      this.directories.add(directory);
    }
    const temporary = join(directory, `.${randomUUID()}.partial`);
    let size = 0;
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limit) callback(new BlobStoreError('BLOB_TOO_LARGE', `Blob exceeds ${limit} bytes`));
        else callback(null, chunk);
      },
    });
    // flush: the file is fsynced before its descriptor is closed.
    const file = createWriteStream(temporary, { flags: 'wx', flush: true });
    try {
      await pipeline(body, counter, file);
      await rename(temporary, target);
      await this.directorySync.sync(directory);
    } catch (error) {
      // A directory removed behind our back is created again by the next put.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.directories.delete(directory);
      // (A body that failed just before the put began fails the pipeline before the file is open.)
      await writeStreamClosed(file);
      await rm(temporary, { force: true });
      throw error;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const info = await this.stat(key);
    if (!info) throw new BlobStoreError('BLOB_NOT_FOUND', 'No such blob');
    if (range) {
      const end = range.end ?? info.size - 1;
      if (range.start < 0 || end < range.start || end >= info.size) {
        throw new BlobStoreError('BLOB_BAD_RANGE', 'Range outside the blob');
      }
      return createReadStream(this.pathOf(key), { start: range.start, end, highWaterMark: BLOB_READ_CHUNK_BYTES });
    }
    return createReadStream(this.pathOf(key), { highWaterMark: BLOB_READ_CHUNK_BYTES });
  }

  async openReader(key: string): Promise<BlobReader> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobStoreError('BLOB_NOT_FOUND', 'No such blob');
      throw error;
    }
    const opened = handle;
    return {
      read: async (into, length, position) => (await opened.read(into, 0, length, position)).bytesRead,
      close: () => opened.close(),
    };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  list(): AsyncIterable<StoredEntry> {
    return listDiskBlobs(this.root);
  }

  private pathOf(key: string): string {
    return join(this.root, checkBlobKey(key));
  }
}

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
