import type { Readable } from 'node:stream';

/**
 * Where ciphertext lives. Narrow on purpose (style rule 9): the disk store is the embedded
 * default; an S3-compatible store can implement the same four calls.
 */
export interface BlobStore {
  /** Streams `body` into the blob `key`. Resolves once the bytes are durable, never before. */
  put(key: string, body: Readable, options?: PutOptions): Promise<BlobInfo>;
  /** A stream of the blob, or of the inclusive byte range `[start, end]`. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The blob's size, or null when there is no such blob. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Removes the blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
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

export type BlobStoreErrorCode = 'BLOB_NOT_FOUND' | 'BLOB_TOO_LARGE' | 'BLOB_BAD_KEY' | 'BLOB_BAD_RANGE';

export class BlobStoreError extends Error {
  override readonly name = 'BlobStoreError';
  constructor(
    readonly code: BlobStoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
