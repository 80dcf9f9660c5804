/**
 * Ciphertext of one file, produced on demand for any byte range, with bounded memory.
 *
 * A producer reads the file record by record, starts each record's AES-GCM encryption and keeps at
 * most READAHEAD_RECORDS encrypted records queued for the reader; when the queue is full it waits
 * (backpressure: the consumer's pace decides how much is read). Reads that continue where the last
 * one ended are served from the queue; a read anywhere else (an upload resuming from the server's
 * offset) restarts the producer at the record holding that byte, so nothing before it is re-read.
 * Encryption is deterministic for a given key, IV and record index, so re-produced records are
 * byte-identical to the first attempt.
 *
 * Records pass the hash sink in file order while production runs sequentially; `sha256()` hashes
 * whatever part the producer has not fed (after a jump, or if the reader stopped early), reading
 * only that part again. A resumed upload starts its hash from the saved state of a record boundary
 * (`hashFrom`, workers/hash-checkpoints.ts). When the producer jumps ahead of the hash (a resumed
 * upload continuing from the server's offset), a short gap (at most GAP_FILL_MAX_PLAIN_BYTES, the
 * usual distance from the last snapshot) is hashed on the spot before the producer's records, and
 * a longer one (no snapshot) starts the catch-up of `sha256()` at once, in parallel with the
 * upload. Small files (up to ONE_SHOT_DIGEST_MAX_BYTES) are read into memory once
 * and hashed with a single crypto.subtle.digest call instead.
 */
import {
  type CipherBytes,
  type Sha256Hex,
  type Bytes,
  CryptoError,
  encryptRecord,
  type RecordContext,
  encodeHeader,
  encryptedLength,
  HEADER_LENGTH,
  recordCount,
  recordsForCipherRange,
  recordSpan,
  ONE_SHOT_DIGEST_MAX_BYTES,
  sha256OneShot,
} from '../crypto/index.ts';
import { BlobRecordReader, type PlainRecord } from './blob-record-reader.ts';
import { checkpointInterval, type HashCheckpoint } from './hash-checkpoints.ts';
import type { HashSink } from './hash-sinks.ts';
import { isSentSignature, RecordTags, type SentSignature } from './sent-signature.ts';

/** Encrypted records kept ready ahead of the reader (2 MiB at the default record size). */
export const READAHEAD_RECORDS = 8;

/**
 * A jump of the producer at most this far ahead of the hash is closed by hashing the gap before
 * the producer's next record (the producer waits: a fraction of a second at this size); a longer
 * one is left to the catch-up, which runs beside the upload.
 */
export const GAP_FILL_MAX_PLAIN_BYTES = 64 * 1024 * 1024;

interface RecordSource {
  next(): Promise<PlainRecord | undefined>;
  recycle(buffer: ArrayBuffer): void;
  close(): Promise<void>;
}

/** Small files: the whole plaintext is already in memory; records are views into it. */
class MemoryRecordSource implements RecordSource {
  constructor(
    private readonly plaintext: Bytes,
    private readonly recordSize: number,
    private nextIndex: number,
  ) {}

  async next(): Promise<PlainRecord | undefined> {
    if (this.nextIndex >= recordCount(this.plaintext.byteLength, this.recordSize)) return undefined;
    const span = recordSpan(this.nextIndex++, this.plaintext.byteLength, this.recordSize);
    return { index: span.index, last: span.last, bytes: this.plaintext.subarray(span.plainStart, span.plainEnd) };
  }

  recycle(): void {}
  async close(): Promise<void> {}
}

interface QueuedRecord {
  readonly index: number;
  readonly ciphertext: Promise<CipherBytes>;
}

export interface EncryptionJobInit {
  readonly source: Blob;
  readonly key: CryptoKey;
  readonly iv: Bytes;
  readonly recordSize: number;
  /** Where large files are hashed; ignored for small files (one-shot digest). */
  readonly hashSink: HashSink | undefined;
  /** A resumed upload: the hash state after the first `records` records (from an earlier page). */
  readonly hashFrom?: HashCheckpoint | undefined;
  /** Records between hash snapshots; default checkpointInterval(recordSize). */
  readonly checkpointEvery?: number;
  /** Default GAP_FILL_MAX_PLAIN_BYTES (tests make it small). */
  readonly gapFillMaxBytes?: number;
}

export class EncryptionJob {
  readonly plainLength: number;
  readonly encryptedLength: number;
  readonly recordSize: number;
  private readonly count: number;
  private readonly context: RecordContext;
  private readonly source: Blob;
  private readonly hashSink: HashSink | undefined;
  private readonly gapFillMaxBytes: number;
  private plaintext: Bytes | undefined;
  /** The tag of every record encrypted so far: the content signature of what may have been sent. */
  private readonly tags = new RecordTags();

  private queue: QueuedRecord[] = [];
  private lastTaken: { readonly index: number; readonly bytes: CipherBytes } | undefined;
  private generation = 0;
  private producerNext = 0;
  private producerRunning = false;
  private producerError: unknown;
  private wakeProducer: (() => void) | undefined;
  private wakeConsumer: (() => void) | undefined;

  private hashNext = 0;
  private hashCatchUp = false;
  /** The gap fill running (it alone feeds the hash meanwhile). */
  private gapFill: Promise<void> | undefined;
  private digest: Promise<Sha256Hex> | undefined;
  private hashFinished = false;
  private closed = false;
  private reads: Promise<unknown> = Promise.resolve();

  private constructor(init: EncryptionJobInit, plaintext: Bytes | undefined) {
    this.source = init.source;
    this.recordSize = init.recordSize;
    this.plainLength = init.source.size;
    this.encryptedLength = encryptedLength(this.plainLength, init.recordSize);
    this.count = recordCount(this.plainLength, init.recordSize);
    this.context = { key: init.key, iv: init.iv, header: encodeHeader(init.recordSize) };
    this.plaintext = plaintext;
    this.gapFillMaxBytes = init.gapFillMaxBytes ?? GAP_FILL_MAX_PLAIN_BYTES;
    this.hashSink = plaintext ? undefined : init.hashSink;
    if (plaintext) init.hashSink?.abort();
  }

  static async open(init: EncryptionJobInit): Promise<EncryptionJob> {
    const small = init.source.size <= ONE_SHOT_DIGEST_MAX_BYTES;
    const plaintext = small ? new Uint8Array(await init.source.arrayBuffer()) : undefined;
    if (plaintext && plaintext.byteLength !== init.source.size) {
      throw new CryptoError('SOURCE_CHANGED', 'the file changed while being read');
    }
    const job = new EncryptionJob(init, plaintext);
    if (job.hashSink) {
      const from = init.hashFrom;
      // A checkpoint that cannot belong to this file is not loaded: the hash starts at byte 0.
      const usable = from && Number.isSafeInteger(from.records) && from.records >= 0 && from.records <= job.count ? from : undefined;
      job.hashNext = await job.hashSink.start(usable, init.checkpointEvery ?? checkpointInterval(init.recordSize));
    }
    return job;
  }

  /** The format version this job writes (the header's). */
  get formatVersion(): number {
    return this.context.header.version;
  }

  /**
   * The newest hash snapshot whose records all lie within the first `confirmedCipherOffset` bytes
   * of the ciphertext (what the server has confirmed), or null (none yet, or a small file).
   */
  hashCheckpoint(confirmedCipherOffset: number): HashCheckpoint | null {
    if (!this.hashSink) return null;
    const offset = Math.min(confirmedCipherOffset, this.encryptedLength);
    const mapping = recordsForCipherRange(0, offset, this.plainLength, this.recordSize);
    // Records wholly inside [0, offset): the last overlapping one may be cut off.
    let whole = mapping.endRecord;
    if (whole > 0 && recordSpan(whole - 1, this.plainLength, this.recordSize).cipherEnd > offset) whole--;
    return this.hashSink.checkpoint(whole);
  }

  /**
   * The content signature of the records holding ciphertext bytes [0, cipherEnd)
   * (workers/sent-signature.ts): what the page stores before it hands those bytes to the network.
   * Records this job has not encrypted (none, when the reads went in order) are encrypted now.
   */
  async signSent(cipherEnd: number): Promise<SentSignature> {
    this.assertOpen();
    const records = recordsForCipherRange(0, Math.min(cipherEnd, this.encryptedLength), this.plainLength, this.recordSize).endRecord;
    const missing = this.tags.firstMissing(records);
    if (missing !== undefined) await this.encryptTags(missing, records);
    return this.tags.signature(records);
  }

  /**
   * A resumed upload, before it continues: encrypts the first `expected.records` records of the
   * file as it reads now and compares their signature with the one stored before they were sent.
   * Resolves with the ciphertext length those records reach (what the server may hold and this
   * check vouches for); SOURCE_CHANGED when the file differs from what was sent.
   */
  async verifySent(expected: SentSignature): Promise<number> {
    this.assertOpen();
    if (!isSentSignature(expected) || expected.records > this.count) throw new CryptoError('SOURCE_CHANGED', 'the stored signature does not fit this file');
    this.tags.forget(0);
    await this.encryptTags(0, expected.records);
    const actual = await this.tags.signature(expected.records);
    if (actual.digest !== expected.digest) {
      this.tags.forget(0);
      throw new CryptoError('SOURCE_CHANGED', 'the file differs from the part of it already sent');
    }
    return expected.records === 0 ? HEADER_LENGTH : recordSpan(expected.records - 1, this.plainLength, this.recordSize).cipherEnd;
  }

  /** Encrypts records [from, to) of the file only for their tags (a few at a time, like the producer). */
  private async encryptTags(from: number, to: number): Promise<void> {
    const source = this.recordSource(from);
    const sealing: Promise<void>[] = [];
    try {
      for (let record = await source.next(); record && record.index < to; record = await source.next()) {
        this.assertOpen();
        const index = record.index;
        const sealed = encryptRecord(this.context, index, record.last, record.bytes).then((bytes) => this.tags.keep(index, bytes));
        sealed.catch(() => undefined);
        // encryptRecord has copied the plaintext already.
        source.recycle(record.bytes.buffer);
        sealing.push(sealed);
        if (sealing.length >= READAHEAD_RECORDS) await sealing.shift();
      }
      await Promise.all(sealing);
    } finally {
      await source.close();
    }
  }

  /**
   * Ciphertext bytes [start, end) as views in file order; their lengths add up to end - start
   * (end is clamped to the encrypted length). Concurrent calls are served one after another.
   */
  read(start: number, end: number): Promise<CipherBytes[]> {
    const result = this.reads.then(() => this.readNow(start, end));
    this.reads = result.catch(() => undefined);
    return result;
  }

  private async readNow(start: number, end: number): Promise<CipherBytes[]> {
    this.assertOpen();
    const clampedEnd = Math.min(end, this.encryptedLength);
    const mapping = recordsForCipherRange(start, clampedEnd, this.plainLength, this.recordSize);
    const out: CipherBytes[] = [];
    if (mapping.includesHeader) out.push(this.context.header.bytes.slice(start, Math.min(clampedEnd, HEADER_LENGTH)) as CipherBytes);
    for (let index = mapping.firstRecord; index < mapping.endRecord; index++) {
      const ciphertext = await this.recordCiphertext(index);
      const span = recordSpan(index, this.plainLength, this.recordSize);
      const from = Math.max(start, span.cipherStart) - span.cipherStart;
      const to = Math.min(clampedEnd, span.cipherEnd) - span.cipherStart;
      if (to < ciphertext.byteLength) {
        // The read ends inside this record: hand out a copy and keep the record for the next read
        // (what is handed out gets transferred, i.e. detached from this worker).
        out.push(ciphertext.slice(from, to) as CipherBytes);
      } else {
        out.push(from === 0 ? ciphertext : (ciphertext.subarray(from) as CipherBytes));
      }
    }
    return out;
  }

  /** Records fed to the hash so far (all of them once a small file's one-shot digest is done). */
  hashProgress(): number {
    return this.hashFinished ? this.count : this.hashNext;
  }

  /** SHA-256 hex of the plaintext; cheap once the ciphertext has been read to the end in order. */
  sha256(): Promise<Sha256Hex> {
    this.assertOpen();
    this.digest ??= this.finishHash();
    return this.digest;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopProducer();
    this.notifyConsumer();
    this.queue = [];
    this.lastTaken = undefined;
    this.plaintext = undefined;
    // Also a catch-up still running (started by a long jump, nobody waiting for it): it stops here.
    if (!this.hashFinished) this.hashSink?.abort();
  }

  private assertOpen(): void {
    if (this.closed) throw new CryptoError('WORKER_FAILED', 'encryption job is closed');
  }

  private async recordCiphertext(index: number): Promise<CipherBytes> {
    for (;;) {
      this.assertOpen();
      // A failed read of the file (e.g. SOURCE_CHANGED) breaks the job for good: no silent retry.
      if (this.producerError !== undefined) throw this.producerError;
      // Consecutive reads rarely end on a record boundary: the next read starts inside the record
      // the previous one ended in, so that record is kept instead of re-reading the file for it.
      // (A record whose buffer was already transferred out is detached: byteLength 0.)
      if (this.lastTaken?.index === index && this.lastTaken.bytes.buffer.byteLength > 0) return this.lastTaken.bytes;
      while (this.queue.length > 0 && this.queue[0]!.index < index) this.takeQueued();
      const head = this.queue[0];
      if (head?.index === index) {
        const bytes = await this.takeQueued().ciphertext;
        this.lastTaken = { index, bytes };
        return bytes;
      }
      const coming = this.producerRunning && head === undefined && this.producerNext === index;
      if (!coming) this.startProducer(index);
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
  }

  private takeQueued(): QueuedRecord {
    const item = this.queue.shift()!;
    this.wakeProducer?.();
    this.wakeProducer = undefined;
    return item;
  }

  private startProducer(from: number): void {
    this.stopProducer();
    const generation = ++this.generation;
    this.producerNext = from;
    this.producerRunning = true;
    this.producerError = undefined;
    void this.produce(generation, this.recordSource(from));
  }

  private recordSource(from: number): RecordSource {
    return this.plaintext ? new MemoryRecordSource(this.plaintext, this.recordSize, from) : new BlobRecordReader(this.source, this.recordSize, from);
  }

  private stopProducer(): void {
    this.generation++;
    this.producerRunning = false;
    this.queue = [];
    this.wakeProducer?.();
    this.wakeProducer = undefined;
  }

  private async produce(generation: number, source: RecordSource): Promise<void> {
    const current = () => generation === this.generation;
    try {
      while (current()) {
        while (this.queue.length >= READAHEAD_RECORDS && current()) {
          await new Promise<void>((resolve) => (this.wakeProducer = resolve));
        }
        if (!current()) break;
        const record = await source.next();
        if (!record || !current()) break;
        // encryptRecord copies the plaintext synchronously (WebCrypto semantics), so the buffer may
        // be handed to the hasher or reused as soon as the call returns.
        const index = record.index;
        const ciphertext = encryptRecord(this.context, index, record.last, record.bytes).then((bytes) => {
          // Before the reader can take (and transfer) the record.
          this.tags.keep(index, bytes);
          return bytes;
        });
        ciphertext.catch(() => undefined);
        this.queue.push({ index: record.index, ciphertext });
        this.producerNext = record.index + 1;
        this.notifyConsumer();
        await this.feedHash(record, source);
      }
    } catch (error) {
      if (current()) {
        this.producerError = error;
        this.notifyConsumer();
      }
    } finally {
      if (current()) this.producerRunning = false;
      this.notifyConsumer();
      await source.close();
    }
  }

  private async feedHash(record: PlainRecord, source: RecordSource): Promise<void> {
    const sink = this.hashSink;
    if (sink && !this.hashCatchUp && record.index > this.hashNext) {
      if ((record.index - this.hashNext) * this.recordSize <= this.gapFillMaxBytes) {
        this.gapFill = this.hashRange(sink, record.index);
        try {
          await this.gapFill;
        } finally {
          this.gapFill = undefined;
        }
      } else {
        // Too far to wait for: the catch-up hashes from hashNext to the end beside the upload.
        void this.sha256().catch(() => undefined);
      }
    }
    if (!sink || this.hashCatchUp || record.index !== this.hashNext) {
      source.recycle(record.bytes.buffer);
      return;
    }
    this.hashNext++;
    await sink.update(record.bytes.buffer, record.bytes.byteLength, (buffer) => source.recycle(buffer));
  }

  private notifyConsumer(): void {
    this.wakeConsumer?.();
    this.wakeConsumer = undefined;
  }

  private async finishHash(): Promise<Sha256Hex> {
    if (this.plaintext) return sha256OneShot(this.plaintext);
    const sink = this.hashSink;
    if (!sink) throw new CryptoError('WORKER_FAILED', 'encryption job has no hash sink');
    while (this.gapFill) await this.gapFill.catch(() => undefined);
    if (this.hashNext < this.count) {
      // Take over from the producer: from here on only this loop feeds the hash.
      this.hashCatchUp = true;
      await this.hashRange(sink, this.count);
    }
    const hex = await sink.digest();
    this.hashFinished = true;
    return hex;
  }

  /** Reads records [hashNext, end) of the file again and feeds them to the hash. */
  private async hashRange(sink: HashSink, end: number): Promise<void> {
    const reader = new BlobRecordReader(this.source, this.recordSize, this.hashNext);
    try {
      while (this.hashNext < end) {
        const record = await reader.next();
        if (!record) break;
        this.assertOpen();
        this.hashNext++;
        await sink.update(record.bytes.buffer, record.bytes.byteLength, (buffer) => reader.recycle(buffer));
      }
    } finally {
      await reader.close();
    }
  }
}
