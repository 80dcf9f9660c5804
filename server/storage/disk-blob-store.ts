import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { listDiskBlobs } from './disk-blob-listing.ts';
import {
  BlobStoreError,
  checkBlobKey,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type PutOptions,
  type StoredEntry,
} from './blob-store.ts';

/**
 * Blobs as files under one directory. A put writes a temporary file beside the target, fsyncs it,
 * renames it into place and fsyncs the directory, so a blob that `put` reported is on disk even
 * after a crash, and a half-written one is never visible under its key.
 */
export class DiskBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<BlobInfo> {
    const target = this.pathOf(key);
    const directory = dirname(target);
    await mkdir(directory, { recursive: true });
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
    try {
      await pipeline(body, counter, createWriteStream(temporary, { flags: 'wx' }));
      await fsyncPath(temporary);
      await rename(temporary, target);
      await fsyncPath(directory);
    } catch (error) {
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
      return createReadStream(this.pathOf(key), { start: range.start, end });
    }
    return createReadStream(this.pathOf(key));
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
