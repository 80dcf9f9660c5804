// Pass-through transforms on both sides of the decryptor. CipherMeter counts the encrypted bytes
// read and keeps the header's record size (to tell a truncated blob from an altered one in the
// report). PlainCheck hashes and counts the plaintext as it goes to disk, stops as soon as there is
// more than the promised size (the manifest's, the link's), and reports progress.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { HEADER_BYTES } from '../crypto/index.ts';
import { FileRecoveryError } from './errors.ts';

export class CipherMeter extends Transform {
  bytes = 0;
  private head = Buffer.alloc(0);

  /** The record size the blob's header announces, once 12 bytes have passed. */
  get recordBytes(): number | undefined {
    return this.head.length === HEADER_BYTES ? this.head.readUInt32BE(8) : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.head.length < HEADER_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, HEADER_BYTES - this.head.length)]);
    }
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

export class PlainCheck extends Transform {
  bytes = 0;
  private readonly hash: Hash = createHash('sha256');

  constructor(
    private readonly expectedBytes: number,
    /** Who promised the size, for the message: "the manifest", "the link". */
    private readonly describedBy: string,
    private readonly onProgress: ((bytes: number) => void) | undefined,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.expectedBytes) {
      done(new FileRecoveryError('SIZE_MISMATCH', `decrypts to more than the ${this.expectedBytes} bytes ${this.describedBy} says`));
      return;
    }
    this.hash.update(chunk);
    this.onProgress?.(this.bytes);
    done(null, chunk);
  }

  /** Lower-case hex SHA-256 of everything that passed; call once, after the stream finished. */
  digest(): string {
    return this.hash.digest('hex');
  }
}
