/**
 * Reads a Blob (a File the user picked) as plaintext records, from any record on, with
 * Blob.stream()'s default reader, copying its pieces into record-sized buffers. Buffers handed back
 * with `recycle` are reused, so a long file does not allocate memory per record.
 *
 * Why not the obvious alternatives: slice().arrayBuffer() per record is slower than the stream, and
 * a BYOB reader, though cheaper per byte, can stall for good in a worker that produces garbage
 * ArrayBuffers; a hang is worse than the CPU, so the default reader it is (figures and the
 * reproduction: docs/upload.md, "Measurements behind the choices").
 */
import { type Bytes, CryptoError, recordCount, recordSpan } from '../crypto/index.ts';

export interface PlainRecord {
  readonly index: number;
  readonly last: boolean;
  /** Owned buffer (exactly the record's bytes as a view from offset 0). */
  readonly bytes: Bytes;
}

const MAX_SPARE_BUFFERS = 8;

export class BlobRecordReader {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private piece: Uint8Array | undefined;
  private nextIndex: number;
  private readonly count: number;
  private readonly spares: ArrayBuffer[] = [];

  constructor(
    private readonly blob: Blob,
    private readonly recordSize: number,
    fromIndex = 0,
  ) {
    this.count = recordCount(blob.size, recordSize);
    this.nextIndex = fromIndex;
  }

  /** The next record, or undefined after the last one. */
  async next(): Promise<PlainRecord | undefined> {
    if (this.nextIndex >= this.count) return undefined;
    const span = recordSpan(this.nextIndex, this.blob.size, this.recordSize);
    const length = span.plainEnd - span.plainStart;
    const bytes = this.buffer(length);
    if (!this.reader) {
      this.reader = this.blob.slice(span.plainStart).stream().getReader() as ReadableStreamDefaultReader<Uint8Array>;
    }
    let filled = 0;
    while (filled < length) {
      if (!this.piece || this.piece.byteLength === 0) {
        const { value, done } = await this.readPiece();
        if (done) throw new CryptoError('SOURCE_CHANGED', 'the file ended before its recorded size (it changed while being read)');
        this.piece = value;
      }
      const used = Math.min(this.piece.byteLength, length - filled);
      bytes.set(this.piece.subarray(0, used), filled);
      this.piece = this.piece.subarray(used);
      filled += used;
    }
    this.nextIndex++;
    return { index: span.index, last: span.last, bytes };
  }

  /** Gives a record buffer back for reuse once nobody reads it any more. */
  recycle(buffer: ArrayBuffer): void {
    if (buffer.byteLength === this.recordSize && this.spares.length < MAX_SPARE_BUFFERS) this.spares.push(buffer);
  }

  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = undefined;
    this.piece = undefined;
    await reader?.cancel().catch(() => undefined);
  }

  private buffer(length: number): Bytes {
    const spare = length === this.recordSize ? this.spares.pop() : undefined;
    return spare ? new Uint8Array(spare) : new Uint8Array(length);
  }

  private async readPiece(): Promise<ReadableStreamReadResult<Uint8Array>> {
    try {
      return await this.reader!.read();
    } catch (error) {
      // Chromium reports a file modified or deleted after it was picked as NotReadableError.
      if (error instanceof Error && error.name === 'NotReadableError') {
        throw new CryptoError('SOURCE_CHANGED', 'the file changed or became unreadable while being read', { cause: error });
      }
      throw error;
    }
  }
}
