// The ciphertext of one large file, produced on demand for any byte range tus asks for, such that
// a (file key, IV) pair never encrypts different bytes (docs/format.md, "Resuming from the command
// line"). The plaintext is read in segments of 64 records (16 MiB); every segment is encrypted
// only after the SHA-256 digest of its plaintext is in the upload state (written durably):
// - a segment met for the first time is digested, the digest stored, then it is encrypted (and
//   fed to the whole file's SHA-256, which tus completion sends);
// - a segment met again (tus sends from the server's offset after a retry or in a later run) is
//   read again and encrypted only if its digest equals the stored one; otherwise the file changed
//   and the upload of this file stops with SOURCE_CHANGED.
// So every ciphertext byte that ever left this machine came from plaintext whose digest is stored,
// and the same key and IV only ever encrypt bytes with that digest. A later run re-reads the
// stored segments first (verifyStoredSegments), which also brings the whole-file hash up to date.
import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { cipherLength, DEFAULT_RECORD_BYTES, header, HEADER_BYTES, sealRecordAt, TAG_BYTES } from '../../server/crypto/index.ts';
import { codedError } from '../../contract/coded-error.ts';

export const RECORDS_PER_SEGMENT = 64;
export const SEGMENT_BYTES = RECORDS_PER_SEGMENT * DEFAULT_RECORD_BYTES;
/** Segments kept encrypted, so that overlapping and repeated ranges are not encrypted twice. */
const CACHED_SEGMENTS = 6;

export type SourceChangeKind = 'content' | 'length';

/** A file of the upload cannot be opened or read. */
export class SourceUnreadableError extends codedError('SOURCE_UNREADABLE') {}

/** The file is not what it was when its encryption started: it must start over with a new key. */
export class SourceChangedError extends codedError('SOURCE_CHANGED') {
  constructor(readonly kind: SourceChangeKind, message: string) {
    super(message);
  }
}

export interface SegmentLedger {
  /** Digests of the segments encrypted so far (the state's), in order. */
  readonly digests: readonly string[];
  /** Stores one more digest durably; resolves before the segment may be encrypted. */
  append(digest: string): Promise<void>;
}

export class SegmentCiphertext {
  readonly cipherSize: number;
  private readonly records: number;
  private readonly segments: number;
  private readonly head = header(DEFAULT_RECORD_BYTES);
  private readonly wholeHash: Hash = createHash('sha256');
  private hashedSegments = 0;
  private readonly cache = new Map<number, Promise<Buffer>>();

  constructor(
    private readonly file: FileHandle,
    private readonly plainSize: number,
    private readonly key: Buffer,
    private readonly iv: Buffer,
    private readonly ledger: SegmentLedger,
  ) {
    this.cipherSize = cipherLength(plainSize);
    this.records = Math.max(1, Math.ceil(plainSize / DEFAULT_RECORD_BYTES));
    this.segments = Math.ceil(this.records / RECORDS_PER_SEGMENT);
  }

  /**
   * Re-reads the segments whose digests are stored (a later run), checks each, and hashes them
   * into the whole-file SHA-256. Throws SourceChangedError when one differs.
   */
  async verifyStoredSegments(onProgress?: (plainBytes: number) => void): Promise<void> {
    for (let segment = this.hashedSegments; segment < this.ledger.digests.length; segment++) {
      const plain = await this.readSegment(segment);
      this.checkAgainstLedger(segment, plain);
      this.wholeHash.update(plain);
      this.hashedSegments = segment + 1;
      onProgress?.(Math.min(this.plainSize, (segment + 1) * SEGMENT_BYTES));
    }
  }

  /** Ciphertext bytes [start, end). */
  async slice(start: number, end: number): Promise<Buffer> {
    end = Math.min(end, this.cipherSize);
    if (start >= end) return Buffer.alloc(0);
    const first = this.segmentOfCipherByte(start);
    const last = this.segmentOfCipherByte(end - 1);
    const parts: Buffer[] = [];
    for (let segment = first; segment <= last; segment++) {
      const cipher = await this.segmentCipher(segment);
      const from = this.cipherStartOf(segment);
      parts.push(cipher.subarray(Math.max(0, start - from), Math.min(cipher.length, end - from)));
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** Starts producing the segments of [start, end) ahead of need (errors surface when they are asked for). */
  prefetch(start: number, end: number): void {
    end = Math.min(end, this.cipherSize);
    if (start >= end) return;
    for (let segment = this.segmentOfCipherByte(start); segment <= this.segmentOfCipherByte(end - 1); segment++) {
      this.segmentCipher(segment).catch(() => undefined);
    }
  }

  /**
   * The SHA-256 of the whole plaintext, once every segment has been hashed (reading the ones not
   * yet read, e.g. when the server already had every byte).
   */
  async sha256(): Promise<string> {
    for (let segment = this.hashedSegments; segment < this.segments; segment++) await this.segmentCipher(segment);
    if (this.hashedSegments < this.segments) await this.verifyStoredSegments();
    return this.wholeHash.digest('hex');
  }

  private cipherStartOf(segment: number): number {
    return segment === 0 ? 0 : HEADER_BYTES + segment * RECORDS_PER_SEGMENT * (DEFAULT_RECORD_BYTES + TAG_BYTES);
  }

  private segmentOfCipherByte(offset: number): number {
    const record = offset < HEADER_BYTES ? 0 : Math.floor((offset - HEADER_BYTES) / (DEFAULT_RECORD_BYTES + TAG_BYTES));
    return Math.min(this.segments - 1, Math.floor(record / RECORDS_PER_SEGMENT));
  }

  private segmentCipher(segment: number): Promise<Buffer> {
    let produced = this.cache.get(segment);
    if (!produced) {
      // Segments are produced in order: a segment's digest goes into the ledger after the one before.
      const previous = segment > 0 ? this.cache.get(segment - 1) : undefined;
      produced = (previous ? previous.then(() => this.produce(segment)) : this.produce(segment)).catch((error: unknown) => {
        this.cache.delete(segment);
        throw error;
      });
      this.cache.set(segment, produced);
      for (const key of [...this.cache.keys()]) if (key < segment - CACHED_SEGMENTS + 1) this.cache.delete(key);
    }
    return produced;
  }

  private async produce(segment: number): Promise<Buffer> {
    const plain = await this.readSegment(segment);
    if (segment < this.ledger.digests.length) {
      this.checkAgainstLedger(segment, plain);
    } else if (segment === this.ledger.digests.length) {
      await this.ledger.append(digestOf(plain));
    } else {
      throw new Error(`segment ${segment} asked before segment ${this.ledger.digests.length} was encrypted`);
    }
    if (segment === this.hashedSegments) {
      this.wholeHash.update(plain);
      this.hashedSegments = segment + 1;
    }
    const firstRecord = segment * RECORDS_PER_SEGMENT;
    const parts: Buffer[] = segment === 0 ? [this.head] : [];
    for (let offset = 0, record = firstRecord; offset < plain.length || record === firstRecord; offset += DEFAULT_RECORD_BYTES, record++) {
      const part = plain.subarray(offset, offset + DEFAULT_RECORD_BYTES);
      parts.push(sealRecordAt(this.key, this.iv, record, record === this.records - 1, part));
      if (offset + DEFAULT_RECORD_BYTES >= plain.length) break;
    }
    return Buffer.concat(parts);
  }

  private checkAgainstLedger(segment: number, plain: Buffer): void {
    if (digestOf(plain) !== this.ledger.digests[segment]) {
      throw new SourceChangedError('content', `the file changed since its upload began (bytes ${segment * SEGMENT_BYTES} to ${segment * SEGMENT_BYTES + plain.length} differ)`);
    }
  }

  private async readSegment(segment: number): Promise<Buffer> {
    const start = segment * SEGMENT_BYTES;
    const length = Math.min(SEGMENT_BYTES, this.plainSize - start);
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await this.file.read(buffer, filled, length - filled, start + filled);
      if (bytesRead === 0) throw new SourceChangedError('length', `the file is shorter than the ${this.plainSize} bytes it had when its upload began`);
      filled += bytesRead;
    }
    return buffer;
  }
}

const digestOf = (plain: Buffer): string => createHash('sha256').update(plain).digest('hex');
