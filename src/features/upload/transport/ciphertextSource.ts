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

interface ReadAhead {
  start: number;
  end: number;
  body: Promise<Blob>;
}

export class ReadAheadCiphertextSource {
  private ahead: ReadAhead | null = null;

  constructor(
    private readonly range: CiphertextRange,
    private readonly bodyTimeoutMs = CHUNK_BODY_TIMEOUT_MS,
  ) {}

  get size(): number {
    return this.range.encryptedLength;
  }

  async slice(start: number, end: number): Promise<{ value: Blob; done: boolean }> {
    const stop = Math.min(end, this.size);
    const ahead = this.ahead;
    this.ahead = null;
    const pending = ahead && ahead.start === start && ahead.end === stop ? ahead.body : this.read(start, stop);
    const body = await pending;
    if (stop < this.size) {
      const nextEnd = Math.min(this.size, stop + (stop - start));
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
