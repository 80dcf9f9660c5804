// A blob range as a response body, read into a few buffers that are used again and again instead
// of a new buffer per read (what createReadStream does). Why: each 1 MiB read of a download was a
// new ArrayBuffer, and V8 counts those as external memory and ran a full collection for "external
// memory pressure" every few tens of MiB of them: 2.2-2.6 CPU-s of the server per GiB sent,
// against 0.6 with the buffers reused (docs/operations.md, "Kept: downloads read into buffers used
// again"). Hand-written: no stream library reuses buffers, because only the response knows when it
// is done with a buffer's bytes.
//
// The rule that keeps the bytes right: a buffer is read into again only once every byte pushed
// from it has left the process. Bytes leave in order, so that is when the bytes pushed so far,
// less those still on their way (this stream's own queue, and `pendingDownstream`: every stage
// after it, down to the socket writes the operating system has not taken yet), reach the end of
// the buffer's last use.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { BlobStoreError, type BlobReader } from '../storage/blob-store.ts';

/** Bytes per read, as createReadStream read before (disk-blob-store.ts). */
export const RECYCLED_CHUNK_BYTES = 1024 * 1024;
/** Buffers per response: one being read into while those before it are on their way out. */
export const RECYCLED_BUFFERS = 4;
/**
 * How soon a read waiting for a buffer looks again whether the response has let go of it: at
 * first, then less often while it waits (a client that stopped reading holds its buffers until
 * the connection ends, and the check should not cost much meanwhile).
 */
const RELEASE_POLL_FIRST_MS = 1;
const RELEASE_POLL_MAX_MS = 50;

export interface RecycledBodyOptions {
  readonly chunkBytes?: number;
  readonly buffers?: number;
}

export class RecycledBlobBody extends Readable {
  private readonly buffers: Buffer[];
  /** Per buffer: the bytes pushed up to the end of its last use (0: not used yet). */
  private readonly lastUseEnds: number[];
  private nextBuffer = 0;
  private pushedBytes = 0;
  private position: number;
  private readonly end: number;
  private wanted = false;
  private running = false;

  /** Reads [start, start + length) of `reader`, which this stream closes. */
  constructor(
    private readonly reader: BlobReader,
    start: number,
    length: number,
    private readonly pendingDownstream: () => number,
    options: RecycledBodyOptions = {},
  ) {
    const chunkBytes = Math.max(1, Math.min(options.chunkBytes ?? RECYCLED_CHUNK_BYTES, length));
    // One chunk queued ahead here, as createReadStream queued one.
    super({ highWaterMark: chunkBytes });
    const count = Math.max(2, Math.min(options.buffers ?? RECYCLED_BUFFERS, Math.ceil(length / chunkBytes)));
    this.buffers = Array.from({ length: count }, () => Buffer.allocUnsafeSlow(chunkBytes));
    this.lastUseEnds = this.buffers.map(() => 0);
    this.position = start;
    this.end = start + length;
  }

  override _read(): void {
    this.wanted = true;
    if (!this.running) void this.pump();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.reader.close().then(
      () => callback(error),
      (closeError: unknown) => callback(error ?? (closeError as Error)),
    );
  }

  /** Reads and pushes while the consumer wants more; `running` is cleared in the same turn the loop ends. */
  private async pump(): Promise<void> {
    this.running = true;
    try {
      while (this.wanted && !this.destroyed) {
        this.wanted = false;
        if (this.position >= this.end) {
          this.push(null);
          return;
        }
        const index = this.nextBuffer;
        const buffer = this.buffers[index]!;
        await this.untilReleased(this.lastUseEnds[index]!);
        if (this.destroyed) return;
        const bytesRead = await this.reader.read(buffer, Math.min(buffer.length, this.end - this.position), this.position);
        if (this.destroyed) return;
        if (bytesRead === 0) throw new BlobStoreError('BLOB_SHORT', `The blob ends at ${this.position}, before byte ${this.end}`);
        this.position += bytesRead;
        this.pushedBytes += bytesRead;
        this.lastUseEnds[index] = this.pushedBytes;
        this.nextBuffer = (index + 1) % this.buffers.length;
        if (this.push(buffer.subarray(0, bytesRead))) this.wanted = true;
      }
    } catch (error) {
      this.destroy(error as Error);
    } finally {
      this.running = false;
    }
  }

  /** Waits until every byte pushed up to `mark` has left (see the rule above), or the stream is destroyed. */
  private async untilReleased(mark: number): Promise<void> {
    let waitMs = RELEASE_POLL_FIRST_MS;
    while (!this.destroyed && this.pushedBytes - this.readableLength - this.pendingDownstream() < mark) {
      await sleep(waitMs);
      waitMs = Math.min(RELEASE_POLL_MAX_MS, waitMs * 2);
    }
  }
}
