/**
 * The encrypted file format v1 (docs/format.md) implemented with node:crypto, independently of
 * the browser implementation in crypto/: tests check each against the other, and the offline
 * decrypt command uses this one. Streams are node Transforms with memory bounded by one record.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { OfflineCryptoError } from './errors.ts';

export const MAGIC = Buffer.from('SDRP', 'ascii');
export const VERSION = 1;
export const HEADER_BYTES = 12;
export const TAG_BYTES = 16;
export const DEFAULT_RECORD_BYTES = 262_144;

export function header(recordBytes: number): Buffer {
  const out = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(out, 0);
  out.writeUInt8(VERSION, 4);
  out.writeUInt32BE(recordBytes, 8);
  return out;
}

function readHeader(bytes: Buffer): { recordBytes: number; aad: Buffer } {
  if (!bytes.subarray(0, 4).equals(MAGIC)) throw new OfflineCryptoError('INTEGRITY', 'not an encrypted file (magic)');
  if (bytes[4] !== VERSION) throw new OfflineCryptoError('UNSUPPORTED_VERSION', `format version ${bytes[4]}`);
  if (bytes.readUIntBE(5, 3) !== 0) throw new OfflineCryptoError('INTEGRITY', 'reserved header bytes are not zero');
  const recordBytes = bytes.readUInt32BE(8);
  if (recordBytes < 16 || recordBytes > 16 * 1024 * 1024) throw new OfflineCryptoError('INTEGRITY', 'impossible record size');
  return { recordBytes, aad: Buffer.from(bytes.subarray(0, HEADER_BYTES)) };
}

export function nonceFor(iv: Buffer, counter: number, final: boolean): Buffer {
  const suffix = Buffer.alloc(12);
  suffix.writeUInt32BE(counter, 7);
  suffix[11] = final ? 1 : 0;
  const nonce = Buffer.alloc(12);
  for (let i = 0; i < 12; i++) nonce[i] = iv[i]! ^ suffix[i]!;
  return nonce;
}

export function cipherLength(plainBytes: number, recordBytes = DEFAULT_RECORD_BYTES): number {
  const records = Math.max(1, Math.ceil(plainBytes / recordBytes));
  return HEADER_BYTES + plainBytes + records * TAG_BYTES;
}

/** The record counter is 32 bits wide: no file has more records. */
const MAX_RECORDS = 2 ** 32;

/**
 * The plaintext length whose ciphertext is exactly `cipherBytes` long, or null when none is. After
 * the header come whole sealed records (recordBytes + tag) and at most one shorter last one, which
 * holds at least one byte besides its tag; only the empty file ends in a bare tag.
 */
export function plainLength(cipherBytes: number, recordBytes = DEFAULT_RECORD_BYTES): number | null {
  if (!Number.isSafeInteger(cipherBytes) || cipherBytes < HEADER_BYTES + TAG_BYTES) return null;
  const sealedRecord = recordBytes + TAG_BYTES;
  const body = cipherBytes - HEADER_BYTES;
  const wholeRecords = Math.floor(body / sealedRecord);
  const tail = body % sealedRecord;
  const records = tail === 0 ? wholeRecords : wholeRecords + 1;
  if (records > MAX_RECORDS) return null;
  if (tail === 0) return wholeRecords * recordBytes;
  if (tail > TAG_BYTES) return wholeRecords * recordBytes + tail - TAG_BYTES;
  return tail === TAG_BYTES && wholeRecords === 0 ? 0 : null;
}

function checkKeyAndIv(key: Buffer, iv: Buffer): void {
  if (key.length !== 32) throw new OfflineCryptoError('MALFORMED', 'file key must be 32 bytes');
  if (iv.length !== 12) throw new OfflineCryptoError('MALFORMED', 'IV must be 12 bytes');
}

function sealRecord(key: Buffer, iv: Buffer, aad: Buffer, counter: number, final: boolean, plain: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonceFor(iv, counter, final));
  cipher.setAAD(aad);
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

function openRecord(key: Buffer, iv: Buffer, aad: Buffer, counter: number, final: boolean, sealed: Buffer): Buffer {
  if (sealed.length < TAG_BYTES) throw new OfflineCryptoError('INTEGRITY', 'truncated record');
  const decipher = createDecipheriv('aes-256-gcm', key, nonceFor(iv, counter, final));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  const plain = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([plain, decipher.final()]);
  } catch (error) {
    throw new OfflineCryptoError('INTEGRITY', `record ${counter} failed authentication`, { cause: error });
  }
}

/**
 * Record `index` of a file (docs/format.md "Layout"), sealed on its own: what a resumable upload
 * needs to produce the ciphertext from any record on (the same key, IV and index give the same bytes).
 */
export function sealRecordAt(key: Buffer, iv: Buffer, index: number, final: boolean, plain: Buffer, recordBytes = DEFAULT_RECORD_BYTES): Buffer {
  checkKeyAndIv(key, iv);
  if (plain.length > recordBytes || (!final && plain.length !== recordBytes)) throw new OfflineCryptoError('MALFORMED', 'record length does not fit its place');
  return sealRecord(key, iv, header(recordBytes), index, final, plain);
}

export function encryptBuffer(key: Buffer, iv: Buffer, plain: Buffer, recordBytes = DEFAULT_RECORD_BYTES): Buffer {
  checkKeyAndIv(key, iv);
  const head = header(recordBytes);
  const records = Math.max(1, Math.ceil(plain.length / recordBytes));
  const parts = [head];
  for (let i = 0; i < records; i++) {
    parts.push(sealRecord(key, iv, head, i, i === records - 1, plain.subarray(i * recordBytes, (i + 1) * recordBytes)));
  }
  return Buffer.concat(parts);
}

export function decryptBuffer(key: Buffer, iv: Buffer, sealed: Buffer): Buffer {
  const opener = new RecordOpener(key, iv);
  return Buffer.concat([...opener.push(sealed), opener.end()]);
}

/**
 * Synchronous core of decryption: feed pieces, get plaintext records; a full record is only opened
 * as non-final once a further byte has arrived, and end() opens the rest as the final record.
 */
export class RecordOpener {
  private buffered: Buffer = Buffer.alloc(0);
  private aad: Buffer | undefined;
  private recordBytes = 0;
  private counter = 0;

  constructor(
    private readonly key: Buffer,
    private readonly iv: Buffer,
  ) {
    checkKeyAndIv(key, iv);
  }

  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    if (!this.aad) {
      if (this.buffered.length < HEADER_BYTES) return out;
      const parsed = readHeader(this.buffered);
      this.aad = parsed.aad;
      this.recordBytes = parsed.recordBytes;
      this.buffered = this.buffered.subarray(HEADER_BYTES);
    }
    const sealedRecord = this.recordBytes + TAG_BYTES;
    while (this.buffered.length > sealedRecord) {
      out.push(openRecord(this.key, this.iv, this.aad, this.counter++, false, this.buffered.subarray(0, sealedRecord)));
      this.buffered = this.buffered.subarray(sealedRecord);
    }
    return out;
  }

  end(): Buffer {
    if (!this.aad) throw new OfflineCryptoError('INTEGRITY', 'truncated: no complete header');
    const last = openRecord(this.key, this.iv, this.aad, this.counter++, true, this.buffered);
    this.buffered = Buffer.alloc(0);
    return last;
  }
}

/** plaintext bytes in, format bytes out. */
export class EncryptRecords extends Transform {
  private readonly head: Buffer;
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private counter = 0;

  constructor(
    private readonly key: Buffer,
    private readonly iv: Buffer,
    private readonly recordBytes = DEFAULT_RECORD_BYTES,
  ) {
    super();
    checkKeyAndIv(key, iv);
    this.head = header(recordBytes);
    this.push(this.head);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    // Keep at least one byte back: the record that ends the input must carry the final flag.
    if (this.bufferedBytes > this.recordBytes) {
      const all = Buffer.concat(this.buffered);
      let offset = 0;
      while (all.length - offset > this.recordBytes) {
        this.push(sealRecord(this.key, this.iv, this.head, this.counter++, false, all.subarray(offset, offset + this.recordBytes)));
        offset += this.recordBytes;
      }
      this.buffered = [all.subarray(offset)];
      this.bufferedBytes = all.length - offset;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.push(sealRecord(this.key, this.iv, this.head, this.counter++, true, Buffer.concat(this.buffered)));
    done();
  }
}

/** format bytes in, plaintext out; a failure is emitted as an OfflineCryptoError. */
export class DecryptRecords extends Transform {
  private readonly opener: RecordOpener;

  constructor(key: Buffer, iv: Buffer) {
    super();
    this.opener = new RecordOpener(key, iv);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      for (const plain of this.opener.push(chunk)) this.push(plain);
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      this.push(this.opener.end());
      done();
    } catch (error) {
      done(error as Error);
    }
  }
}
