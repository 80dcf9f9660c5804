import type { Readable } from 'node:stream';
import { CodedError } from '../../contract/coded-error.ts';

/**
 * Where ciphertext lives. Narrow on purpose (style rule 9): the disk store is the embedded
 * default, the S3 store (s3-blob-store.ts) the one for several processes; both implement these
 * calls, and `list` only for the orphan sweep.
 */
export interface BlobStore {
  /** Streams `body` into the blob `key`. Resolves once the bytes are durable, never before. */
  put(key: string, body: Readable, options?: PutOptions): Promise<BlobInfo>;
  /** A stream of the blob, or of the inclusive byte range `[start, end]`. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * The blob opened for reads into buffers the caller owns (a store on a local disk): what lets a
   * download reuse a few buffers instead of a new one per read (server/files/recycled-blob-body.ts).
   * A store without it is read through `get`.
   */
  openReader?(key: string): Promise<BlobReader>;
  /** The blob's size, or null when there is no such blob. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Removes the blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Everything the store holds, in no particular order, for the orphan sweep: every blob, and
   * every write the store started and never finished (a disk store's temporary file, an S3
   * multipart upload never completed or aborted).
   */
  list(): AsyncIterable<StoredEntry>;
}

/** An open blob, read at any position (DiskBlobStore.openReader). */
export interface BlobReader {
  /** Reads up to `length` bytes at `position` into the start of `into`; resolves with how many (0 at the end). */
  read(into: Buffer, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

export interface StoredEntry {
  /** The blob's key; for an unfinished write, the key it was being written to (when known). */
  key: string;
  /** When it was last written (an unfinished S3 upload: when it was started). */
  modifiedAt: number;
  /** Not a blob yet: a write in progress or abandoned. */
  unfinished: boolean;
  /** Removes exactly this entry (deletes the blob, the temporary file, or aborts the upload). */
  remove(): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/**
 * Keys are relative paths of safe segments; anything else (.., absolute, odd bytes) is refused,
 * by every store alike, so that a key valid in one store is valid in the other.
 */
export function checkBlobKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new BlobStoreError('BLOB_BAD_KEY', 'Invalid blob key');
  }
  return key;
}

export interface PutOptions {
  /** Refuse (and discard) the blob as soon as more than this many bytes arrive. */
  maxBytes?: number;
}

export interface BlobInfo {
  size: number;
}

export interface ByteRange {
  start: number;
  /** Inclusive; omitted means to the end. */
  end?: number;
}

export type BlobStoreErrorCode = 'BLOB_NOT_FOUND' | 'BLOB_TOO_LARGE' | 'BLOB_BAD_KEY' | 'BLOB_BAD_RANGE' | 'BLOB_SHORT';

export class BlobStoreError extends CodedError<BlobStoreErrorCode> {}
