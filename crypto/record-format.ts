/**
 * The encrypted file format, version 1 (docs/format.md is the normative description; keep the two
 * in step). Pure arithmetic and byte layout, no I/O:
 *
 *   file  = header || record_0 || ... || record_{n-1}
 *   header (12 bytes) = "SDRP" || version u8 (1) || 3 zero bytes || recordSize u32 BE
 *   record_i = AES-256-GCM(key, nonce_i, aad = header, plaintext_i)  (ciphertext || 16-byte tag)
 *   nonce_i  = iv XOR (7 zero bytes || i as u32 BE || last flag u8)
 *
 * Every record but the last holds exactly recordSize plaintext bytes; the last holds 1..recordSize
 * (0 only when the whole file is empty, which is then a single empty last record). The last flag in
 * the nonce makes truncation at a record boundary and extension detectable; the counter detects
 * reordering, duplication and dropping; the per-file key and IV detect splicing between files; the
 * header in the AAD detects header tampering.
 */
import type { Bytes } from './bytes.ts';
import { CryptoError } from './errors.ts';

export const FORMAT_MAGIC = Uint8Array.of(0x53, 0x44, 0x52, 0x50); // "SDRP"
export const FORMAT_VERSION = 1;
export const HEADER_LENGTH = 12;
export const TAG_LENGTH = 16;
export const IV_LENGTH = 12;
export const KEY_LENGTH = 32;
/** Chosen by measurement (docs/format.md, "Record size"). */
export const DEFAULT_RECORD_SIZE = 256 * 1024;
export const MIN_RECORD_SIZE = 16;
export const MAX_RECORD_SIZE = 16 * 1024 * 1024;
/** The counter is 32 bits wide. */
export const MAX_RECORDS = 2 ** 32;

export interface FormatHeader {
  readonly version: number;
  readonly recordSize: number;
  /** The exact 12 header bytes, used as AAD of every record. */
  readonly bytes: Bytes;
}

export function assertRecordSize(recordSize: number): void {
  if (!Number.isInteger(recordSize) || recordSize < MIN_RECORD_SIZE || recordSize > MAX_RECORD_SIZE) {
    throw new CryptoError('MALFORMED', `record size ${recordSize} is outside ${MIN_RECORD_SIZE}..${MAX_RECORD_SIZE}`);
  }
}

function assertPlainLength(plainLength: number): void {
  if (!Number.isSafeInteger(plainLength) || plainLength < 0) {
    throw new CryptoError('MALFORMED', `plaintext length ${plainLength} is not a non-negative integer`);
  }
}

export function encodeHeader(recordSize: number = DEFAULT_RECORD_SIZE): FormatHeader {
  assertRecordSize(recordSize);
  const bytes = new Uint8Array(HEADER_LENGTH);
  bytes.set(FORMAT_MAGIC, 0);
  bytes[4] = FORMAT_VERSION;
  new DataView(bytes.buffer).setUint32(8, recordSize, false);
  return { version: FORMAT_VERSION, recordSize, bytes };
}

/**
 * Parses the 12 header bytes. A header that is not ours, or that was altered, is an integrity
 * failure (the header is authenticated through the records' AAD, so an altered header could never
 * decrypt anyway); a well-formed header of another version is UNSUPPORTED_VERSION.
 */
export function parseHeader(bytes: Uint8Array): FormatHeader {
  if (bytes.length < HEADER_LENGTH) throw new CryptoError('INTEGRITY', 'encrypted data is truncated (no complete header)');
  for (let i = 0; i < FORMAT_MAGIC.length; i++) {
    if (bytes[i] !== FORMAT_MAGIC[i]) throw new CryptoError('INTEGRITY', 'encrypted data does not start with the format header');
  }
  const version = bytes[4]!;
  if (version !== FORMAT_VERSION) {
    throw new CryptoError('UNSUPPORTED_VERSION', `encrypted file format version ${version} is not supported`);
  }
  if (bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0) {
    throw new CryptoError('INTEGRITY', 'encrypted data header has non-zero reserved bytes');
  }
  const recordSize = new DataView(bytes.buffer, bytes.byteOffset, HEADER_LENGTH).getUint32(8, false);
  if (recordSize < MIN_RECORD_SIZE || recordSize > MAX_RECORD_SIZE) {
    throw new CryptoError('INTEGRITY', 'encrypted data header has an impossible record size');
  }
  return { version, recordSize, bytes: new Uint8Array(bytes.subarray(0, HEADER_LENGTH)) as Bytes };
}

/** nonce_i = iv XOR (0^7 || u32be(i) || lastFlag). */
export function recordNonce(iv: Uint8Array, index: number, last: boolean): Bytes {
  if (iv.length !== IV_LENGTH) throw new CryptoError('MALFORMED', `IV must be ${IV_LENGTH} bytes, got ${iv.length}`);
  if (!Number.isInteger(index) || index < 0 || index >= MAX_RECORDS) {
    throw new CryptoError('MALFORMED', `record index ${index} is out of range`);
  }
  const nonce = new Uint8Array(iv);
  nonce[7]! ^= (index >>> 24) & 0xff;
  nonce[8]! ^= (index >>> 16) & 0xff;
  nonce[9]! ^= (index >>> 8) & 0xff;
  nonce[10]! ^= index & 0xff;
  nonce[11]! ^= last ? 1 : 0;
  return nonce;
}

/** Number of records for a plaintext length: at least one (an empty file is one empty last record). */
export function recordCount(plainLength: number, recordSize: number = DEFAULT_RECORD_SIZE): number {
  assertPlainLength(plainLength);
  assertRecordSize(recordSize);
  return plainLength === 0 ? 1 : Math.ceil(plainLength / recordSize);
}

/** Exact ciphertext length; the upload announces it before any byte is encrypted. */
export function encryptedLength(plainLength: number, recordSize: number = DEFAULT_RECORD_SIZE): number {
  const count = recordCount(plainLength, recordSize);
  if (count > MAX_RECORDS) throw new CryptoError('MALFORMED', 'plaintext too long for the 32-bit record counter');
  return HEADER_LENGTH + plainLength + count * TAG_LENGTH;
}

/** Inverse of encryptedLength; throws MALFORMED for a length no plaintext encrypts to. */
export function plainLengthOf(cipherLength: number, recordSize: number = DEFAULT_RECORD_SIZE): number {
  assertRecordSize(recordSize);
  if (!Number.isSafeInteger(cipherLength) || cipherLength < HEADER_LENGTH + TAG_LENGTH) {
    throw new CryptoError('MALFORMED', `${cipherLength} is not a valid encrypted length`);
  }
  const body = cipherLength - HEADER_LENGTH;
  const fullRecord = recordSize + TAG_LENGTH;
  const count = Math.ceil(body / fullRecord);
  const lastCipher = body - (count - 1) * fullRecord;
  const lastPlain = lastCipher - TAG_LENGTH;
  // lastPlain < 0: the tail cannot hold a tag; lastPlain == 0 after full records: an empty last
  // record, which the encoder never writes (only an empty file has one); more records than the
  // 32-bit counter can number: encryptedLength refuses such a plaintext.
  if (lastPlain < 0 || (lastPlain === 0 && count > 1) || count > MAX_RECORDS) {
    throw new CryptoError('MALFORMED', `${cipherLength} is not a valid encrypted length`);
  }
  return (count - 1) * recordSize + lastPlain;
}

export interface RecordSpan {
  readonly index: number;
  readonly last: boolean;
  /** Plaintext byte range [plainStart, plainEnd). */
  readonly plainStart: number;
  readonly plainEnd: number;
  /** Ciphertext byte range [cipherStart, cipherEnd) of this record (header excluded). */
  readonly cipherStart: number;
  readonly cipherEnd: number;
}

export function recordSpan(index: number, plainLength: number, recordSize: number = DEFAULT_RECORD_SIZE): RecordSpan {
  const count = recordCount(plainLength, recordSize);
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new CryptoError('MALFORMED', `record ${index} does not exist in a ${count}-record file`);
  }
  const plainStart = index * recordSize;
  const plainEnd = Math.min(plainLength, plainStart + recordSize);
  const cipherStart = HEADER_LENGTH + index * (recordSize + TAG_LENGTH);
  return {
    index,
    last: index === count - 1,
    plainStart,
    plainEnd,
    cipherStart,
    cipherEnd: cipherStart + (plainEnd - plainStart) + TAG_LENGTH,
  };
}

export interface CipherRangeMapping {
  /** True when the range overlaps the header bytes [0, HEADER_LENGTH). */
  readonly includesHeader: boolean;
  /** Records overlapping the range, [firstRecord, endRecord); empty when only the header is asked. */
  readonly firstRecord: number;
  readonly endRecord: number;
}

/**
 * Which records cover the ciphertext bytes [start, end): what a resumed upload must re-encrypt
 * when the server asks for bytes from an arbitrary offset.
 */
export function recordsForCipherRange(
  start: number,
  end: number,
  plainLength: number,
  recordSize: number = DEFAULT_RECORD_SIZE,
): CipherRangeMapping {
  const total = encryptedLength(plainLength, recordSize);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end > total || start > end) {
    throw new CryptoError('MALFORMED', `ciphertext range [${start}, ${end}) is outside [0, ${total})`);
  }
  const includesHeader = start < HEADER_LENGTH && end > start;
  if (end <= HEADER_LENGTH || start === end) return { includesHeader, firstRecord: 0, endRecord: 0 };
  const fullRecord = recordSize + TAG_LENGTH;
  const firstRecord = Math.floor((Math.max(start, HEADER_LENGTH) - HEADER_LENGTH) / fullRecord);
  const endRecord = Math.floor((end - 1 - HEADER_LENGTH) / fullRecord) + 1;
  return { includesHeader, firstRecord, endRecord };
}
