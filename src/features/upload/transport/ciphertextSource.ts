// tus-js-client reads what it sends through a "file reader"; ours serves ciphertext, produced on
// demand by the crypto pool for any byte range (EncryptionSession.readBody). While one chunk is on
// the wire the next is already being encrypted (one chunk of read-ahead), so encryption and sending
// overlap instead of taking turns. After a resume tus asks for a range that starts wherever the
// server's offset is; the read-ahead is then dropped and the pool re-encrypts from the record
// holding that byte (deterministically: same key, IV and counter, so the same bytes).
//
// Memory: the bodies are files of the upload spool, read from disk by the browser
// (workers/ciphertext-spool.ts); where the browser has no spool, at most two chunks of ciphertext
// per file in memory (the one being sent and the one read ahead) until the garbage collector
// frees them.

import { settleWithin } from '../../../../workers/index.ts';

/**
 * A chunk's body takes a few seconds at most to produce (64 MiB at tens of MB/s even on a loaded
 * 2-core laptop); one that takes this long will not come: a worker or a browser storage call
 * stopped answering (docs/upload.md, "Upload spool"). The file then fails with a reason that says
 * to reload, which continues it from the server's offset, instead of sitting at the same percentage.
 */
export const CHUNK_BODY_TIMEOUT_MS = 60_000;

/**
 * The first body a source serves is at most this long, and a final body of more than twice this
 * is sent as two, the second this long, whatever chunk size tus asks for. Nothing is on the wire
 * while the first body is produced, and nothing is produced while the last one is sent and
 * flushed; with 64 MiB at both ends the cores sat half idle for about a second of a 1 GiB upload
 * (docs/upload.md, "Chunk ramp"). tus-js-client sends a shorter body as it is and asks for the
 * next from the offset the server answers.
 */
export const RAMP_BODY_BYTES = 16 * 1024 * 1024;

/** The ciphertext of a chunk did not arrive within CHUNK_BODY_TIMEOUT_MS. */
export class ChunkBodyTimeoutError extends Error {
  override readonly name = 'ChunkBodyTimeoutError';
  readonly code = 'CHUNK_BODY_TIMEOUT';
  constructor(limitMs: number) {
    super(`the encrypted data of a chunk did not arrive within ${Math.round(limitMs / 1000)} s`);
  }
}

export interface CiphertextRange {
  readonly encryptedLength: number;
  /** The ciphertext bytes [start, end) as a request body (a Blob: see EncryptionSession.readBody). */
  readBody(start: number, end: number): Promise<Blob>;
}

/** A failure to produce the bytes (the file changed, a worker died), as opposed to sending them. */
export class SourceReadError extends Error {
  override readonly name = 'SourceReadError';
  readonly code = 'SOURCE_READ_FAILED';
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** Where a body asked as [start, askedEnd) ends, with the first and the last body kept short (RAMP_BODY_BYTES). */
export function tusBodyEnd(start: number, askedEnd: number, size: number, first: boolean, rampBytes = RAMP_BODY_BYTES): number {
  let stop = Math.min(askedEnd, size);
  if (first) stop = Math.min(stop, start + rampBytes);
  if (stop === size && stop - start > 2 * rampBytes) stop = size - rampBytes;
  return stop;
}

/** The offsets at which the PATCHes of an uninterrupted upload of `size` bytes start (for tests and benchmarks that stop one). */
export function tusBodyStarts(size: number, chunkBytes: number, rampBytes = RAMP_BODY_BYTES): number[] {
  const starts: number[] = [];
  for (let start = 0; start < size; start = tusBodyEnd(start, start + chunkBytes, size, start === 0, rampBytes)) starts.push(start);
  return starts;
}

interface ReadAhead {
  start: number;
  end: number;
  body: Promise<Blob>;
}

export class ReadAheadCiphertextSource {
  private ahead: ReadAhead | null = null;
  private served = false;

  constructor(
    private readonly range: CiphertextRange,
    private readonly bodyTimeoutMs = CHUNK_BODY_TIMEOUT_MS,
    private readonly rampBytes = RAMP_BODY_BYTES,
  ) {}

  get size(): number {
    return this.range.encryptedLength;
  }

  async slice(start: number, end: number): Promise<{ value: Blob; done: boolean }> {
    const stop = tusBodyEnd(start, end, this.size, !this.served, this.rampBytes);
    this.served = true;
    const ahead = this.ahead;
    this.ahead = null;
    const pending = ahead && ahead.start === start && ahead.end === stop ? ahead.body : this.read(start, stop);
    const body = await pending;
    if (stop < this.size) {
      // tus asks next for [stop, stop + its chunk size); the chunk size is what it asked for now.
      const nextEnd = tusBodyEnd(stop, stop + (end - start), this.size, false, this.rampBytes);
      const next = this.read(stop, nextEnd);
      // A read-ahead nobody asks for (tus resumed elsewhere) must not surface as an unhandled rejection.
      next.catch(() => undefined);
      this.ahead = { start: stop, end: nextEnd, body: next };
    }
    return { value: body, done: stop >= this.size };
  }

  close(): void {
    this.ahead = null;
  }

  private read(start: number, end: number): Promise<Blob> {
    const body = settleWithin(this.range.readBody(start, end), this.bodyTimeoutMs, () => new ChunkBodyTimeoutError(this.bodyTimeoutMs));
    return body.catch((error: unknown) => {
      throw new SourceReadError(error);
    });
  }
}
