/**
 * Streaming decryption of the record format from ciphertext delivered in arbitrary pieces (as
 * fetch delivers it). Memory is bounded by one record plus the piece being pushed. A full record is
 * held back until at least one more byte arrives, because only the end of the stream tells whether
 * it is the last record; `finish()` then decrypts the tail with the last flag, so truncation and
 * extension both fail authentication.
 */
import { asCipherBytes, type CipherBytes, type PlainBytes } from './branded.ts';
import type { Bytes } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { decryptRecord, type RecordContext } from './record-cipher.ts';
import { HEADER_LENGTH, IV_LENGTH, parseHeader, TAG_LENGTH, type FormatHeader } from './record-format.ts';

export class RecordDecryptor {
  private readonly pending: Bytes[] = [];
  private pendingLength = 0;
  private context: RecordContext | undefined;
  private nextIndex = 0;
  private finished = false;

  constructor(
    private readonly key: CryptoKey,
    private readonly iv: Uint8Array,
  ) {
    if (iv.length !== IV_LENGTH) throw new CryptoError('MALFORMED', `IV must be ${IV_LENGTH} bytes, got ${iv.length}`);
  }

  get header(): FormatHeader | undefined {
    return this.context?.header;
  }

  /** Accepts the next piece of ciphertext; returns the plaintext of every record now complete. */
  async push(chunk: CipherBytes): Promise<PlainBytes[]> {
    return Promise.all(this.pushRecords(chunk));
  }

  /**
   * Accepts the next piece of ciphertext; returns one promise per record now complete, in order,
   * so a reader can pass on the records that authenticate before the one that does not.
   */
  pushRecords(chunk: CipherBytes): Array<Promise<PlainBytes>> {
    if (this.finished) return [Promise.reject(new CryptoError('WORKER_FAILED', 'decryptor already finished or failed'))];
    if (chunk.byteLength === 0) return [];
    const records: Array<Promise<PlainBytes>> = [];
    try {
      this.pending.push(chunk);
      this.pendingLength += chunk.byteLength;
      if (!this.context) {
        if (this.pendingLength < HEADER_LENGTH) return [];
        const header = parseHeader(this.take(HEADER_LENGTH));
        this.context = { key: this.key, iv: this.iv, header };
      }
      const fullRecord = this.context.header.recordSize + TAG_LENGTH;
      // Strictly more than a record buffered: the record at the front is not the last one.
      while (this.pendingLength > fullRecord) {
        records.push(this.failsForGood(decryptRecord(this.context, this.nextIndex++, false, asCipherBytes(this.take(fullRecord)))));
      }
      return records;
    } catch (error) {
      this.finished = true;
      return [...records, Promise.reject(error as Error)];
    }
  }

  /** After a failure nothing more is accepted: no later record can be trusted to follow it. */
  private failsForGood(record: Promise<PlainBytes>): Promise<PlainBytes> {
    record.catch(() => (this.finished = true));
    return record;
  }

  /** The stream ended: decrypts the buffered tail as the last record. */
  async finish(): Promise<PlainBytes[]> {
    if (this.finished) throw new CryptoError('WORKER_FAILED', 'decryptor already finished');
    this.finished = true;
    if (!this.context) throw new CryptoError('INTEGRITY', 'encrypted data is truncated (no complete header)');
    if (this.pendingLength < TAG_LENGTH) {
      throw new CryptoError('INTEGRITY', 'encrypted data is truncated (no complete last record)');
    }
    const last = this.take(this.pendingLength);
    return [await decryptRecord(this.context, this.nextIndex++, true, asCipherBytes(last))];
  }

  /** Removes exactly `length` bytes from the front, without copying when one piece holds them. */
  private take(length: number): Bytes {
    const first = this.pending[0]!;
    if (first.byteLength >= length) {
      const out = first.subarray(0, length);
      if (first.byteLength === length) this.pending.shift();
      else this.pending[0] = first.subarray(length);
      this.pendingLength -= length;
      return out;
    }
    const out = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const piece = this.pending[0]!;
      const used = Math.min(piece.byteLength, length - filled);
      out.set(piece.subarray(0, used), filled);
      filled += used;
      if (used === piece.byteLength) this.pending.shift();
      else this.pending[0] = piece.subarray(used);
    }
    this.pendingLength -= length;
    return out;
  }
}
