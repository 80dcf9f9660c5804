// tus-js-client reads what it sends through a "file reader"; ours serves ciphertext, produced on
// demand by the crypto pool for any byte range (EncryptionSession.read). While one chunk is on the
// wire the next is already being encrypted (one chunk of read-ahead), so encryption and sending
// overlap instead of taking turns. After a resume tus asks for a range that starts wherever the
// server's offset is; the read-ahead is then dropped and the pool re-encrypts from the record
// holding that byte (deterministically: same key, IV and counter, so the same bytes).
//
// Memory: at most two chunks of ciphertext per file on this thread (the one being sent, as a Blob,
// and the one read ahead).

export interface CiphertextRange {
  readonly encryptedLength: number;
  /** The ciphertext bytes [start, end) in pieces (records as the pool made them, not joined). */
  readChunks(start: number, end: number): Promise<readonly Uint8Array[]>;
}

/** A failure to produce the bytes (the file changed, a worker died), as opposed to sending them. */
export class SourceReadError extends Error {
  override readonly name = 'SourceReadError';
  readonly code = 'SOURCE_READ_FAILED';
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * The chunk as tus-js-client sends it: a Blob of the pool's pieces (one copy, no joining first).
 * Chromium 156 here sends a typed-array request body at about 15 MB/s (XMLHttpRequest and fetch
 * alike, 4-64 MiB bodies), and the same bytes in a Blob at about 130 MB/s (measured in headless
 * Chromium against a local sink; docs/upload.md).
 */
function asBody(chunks: readonly Uint8Array[]): Blob {
  return new Blob(chunks as Uint8Array<ArrayBuffer>[]);
}

interface ReadAhead {
  start: number;
  end: number;
  bytes: Promise<readonly Uint8Array[]>;
}

export class ReadAheadCiphertextSource {
  private ahead: ReadAhead | null = null;

  constructor(private readonly range: CiphertextRange) {}

  get size(): number {
    return this.range.encryptedLength;
  }

  async slice(start: number, end: number): Promise<{ value: Blob; done: boolean }> {
    const stop = Math.min(end, this.size);
    const ahead = this.ahead;
    this.ahead = null;
    const pending = ahead && ahead.start === start && ahead.end === stop ? ahead.bytes : this.read(start, stop);
    const bytes = await pending;
    if (stop < this.size) {
      const nextEnd = Math.min(this.size, stop + (stop - start));
      const next = this.read(stop, nextEnd);
      // A read-ahead nobody asks for (tus resumed elsewhere) must not surface as an unhandled rejection.
      next.catch(() => undefined);
      this.ahead = { start: stop, end: nextEnd, bytes: next };
    }
    return { value: asBody(bytes), done: stop >= this.size };
  }

  close(): void {
    this.ahead = null;
  }

  private read(start: number, end: number): Promise<readonly Uint8Array[]> {
    return this.range.readChunks(start, end).catch((error: unknown) => {
      throw new SourceReadError(error);
    });
  }
}
