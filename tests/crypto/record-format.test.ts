import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CryptoError,
  DEFAULT_RECORD_SIZE,
  encodeHeader,
  encryptedLength,
  HEADER_LENGTH,
  MAX_RECORD_SIZE,
  MAX_RECORDS,
  MIN_RECORD_SIZE,
  parseHeader,
  plainLengthOf,
  recordCount,
  recordNonce,
  recordsForCipherRange,
  recordSpan,
  TAG_LENGTH,
} from '../../crypto/index.ts';
import { cipherLength, nonceFor, plainLength } from '../../server/crypto/index.ts';

const R = DEFAULT_RECORD_SIZE;

describe('encrypted length', () => {
  it.each([
    ['empty file: one empty last record', 0, HEADER_LENGTH + TAG_LENGTH],
    ['one byte', 1, HEADER_LENGTH + 1 + TAG_LENGTH],
    ['exactly one record', R, HEADER_LENGTH + R + TAG_LENGTH],
    ['one byte over a record', R + 1, HEADER_LENGTH + R + 1 + 2 * TAG_LENGTH],
    ['exactly two records', 2 * R, HEADER_LENGTH + 2 * R + 2 * TAG_LENGTH],
    ['5 GiB, the upload limit', 5 * 2 ** 30, HEADER_LENGTH + 5 * 2 ** 30 + 20480 * TAG_LENGTH],
  ])('%s', (_name, plain, expected) => {
    expect(encryptedLength(plain)).toBe(expected);
    expect(cipherLength(plain)).toBe(expected);
    expect(plainLengthOf(expected)).toBe(plain);
  });

  it('inverts for every length around record boundaries and any record size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 4096 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: -2, max: 2 }), (size, records, delta) => {
        const plain = Math.max(0, records * size + delta);
        const encrypted = encryptedLength(plain, size);
        expect(encrypted).toBe(cipherLength(plain, size));
        expect(plainLengthOf(encrypted, size)).toBe(plain);
        expect(recordCount(plain, size)).toBe(Math.max(1, Math.ceil(plain / size)));
      }),
    );
  });

  it('rejects lengths that no plaintext encrypts to', () => {
    const size = 64;
    const invalid = [0, HEADER_LENGTH, HEADER_LENGTH + TAG_LENGTH - 1, HEADER_LENGTH + (size + TAG_LENGTH) + 1, HEADER_LENGTH + (size + TAG_LENGTH) + TAG_LENGTH];
    for (const length of invalid) {
      expect(() => plainLengthOf(length, size)).toThrow(CryptoError);
    }
    // Every valid length is hit by exactly one plaintext length.
    const valid = new Set(Array.from({ length: 300 }, (_, plain) => encryptedLength(plain, size)));
    for (let length = 0; length < encryptedLength(299, size); length++) {
      if (valid.has(length)) expect(encryptedLength(plainLengthOf(length, size), size)).toBe(length);
      else expect(() => plainLengthOf(length, size)).toThrow(expect.objectContaining({ code: 'MALFORMED' }));
    }
  });
});

describe('the inverse of the encrypted length, browser (crypto/) against server (server/crypto)', () => {
  /** The browser's answer in the server's terms: a length, or null where plainLengthOf refuses. */
  function browserPlainLength(cipher: number, size: number): number | null {
    try {
      return plainLengthOf(cipher, size);
    } catch (error) {
      expect(error).toMatchObject({ code: 'MALFORMED' });
      return null;
    }
  }

  function expectAgreement(cipher: number, size: number): void {
    const browser = browserPlainLength(cipher, size);
    expect({ cipher, size, plain: plainLength(cipher, size) }).toEqual({ cipher, size, plain: browser });
    if (browser !== null) {
      expect(encryptedLength(browser, size)).toBe(cipher);
      expect(cipherLength(browser, size)).toBe(cipher);
    }
  }

  const recordSize = fc.oneof(
    fc.constantFrom(MIN_RECORD_SIZE, DEFAULT_RECORD_SIZE, MAX_RECORD_SIZE),
    fc.integer({ min: MIN_RECORD_SIZE, max: MAX_RECORD_SIZE }),
  );
  /** The largest plaintext a record size allows (the 32-bit counter), where it is a safe integer. */
  const largestPlain = (size: number) => Math.min(MAX_RECORDS * size, Number.MAX_SAFE_INTEGER);

  it('agree on lengths at and around record boundaries, for any number of records up to the counter', () => {
    fc.assert(
      fc.property(recordSize, fc.integer({ min: 0, max: MAX_RECORDS + 1 }), fc.integer({ min: -TAG_LENGTH - 2, max: TAG_LENGTH + 2 }), (size, records, delta) => {
        const cipher = HEADER_LENGTH + records * (size + TAG_LENGTH) + delta;
        if (Number.isSafeInteger(cipher)) expectAgreement(cipher, size);
      }),
      { numRuns: 2000 },
    );
  });

  it('agree on any length from 0 to the largest safe integer', () => {
    fc.assert(
      fc.property(recordSize, fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.maxSafeNat()), (size, cipher) => expectAgreement(cipher, size)),
      { numRuns: 2000 },
    );
  });

  it('agree at 0, the shortest files and the maxima', () => {
    for (const size of [MIN_RECORD_SIZE, 64, DEFAULT_RECORD_SIZE, MAX_RECORD_SIZE]) {
      const lengths = [0, 1, HEADER_LENGTH, HEADER_LENGTH + TAG_LENGTH - 1, HEADER_LENGTH + TAG_LENGTH, HEADER_LENGTH + TAG_LENGTH + 1];
      const largest = largestPlain(size);
      if (largest === MAX_RECORDS * size) {
        const longest = encryptedLength(largest, size);
        lengths.push(longest - 1, longest, longest + 1, longest + TAG_LENGTH, longest + TAG_LENGTH + 1);
        // The longest file there can be; one more byte of plaintext needs a record the counter cannot number.
        expect(plainLengthOf(longest, size)).toBe(largest);
        expect(plainLength(longest + TAG_LENGTH + 1, size)).toBeNull();
      }
      lengths.push(Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, -1, 0.5, Number.NaN, Infinity);
      for (const cipher of lengths) expectAgreement(cipher, size);
    }
  });
});

describe('record spans and ciphertext ranges', () => {
  it('record spans tile the plaintext and the ciphertext without gaps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 512 }), fc.integer({ min: 0, max: 5000 }), (size, plain) => {
        const count = recordCount(plain, size);
        let plainAt = 0;
        let cipherAt = HEADER_LENGTH;
        for (let i = 0; i < count; i++) {
          const span = recordSpan(i, plain, size);
          expect(span.plainStart).toBe(plainAt);
          expect(span.cipherStart).toBe(cipherAt);
          expect(span.cipherEnd - span.cipherStart).toBe(span.plainEnd - span.plainStart + TAG_LENGTH);
          expect(span.last).toBe(i === count - 1);
          plainAt = span.plainEnd;
          cipherAt = span.cipherEnd;
        }
        expect(plainAt).toBe(plain);
        expect(cipherAt).toBe(encryptedLength(plain, size));
      }),
    );
  });

  it('maps any ciphertext byte range to exactly the records that hold those bytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 256 }), fc.integer({ min: 0, max: 3000 }), fc.nat(), fc.nat(), (size, plain, a, b) => {
        const total = encryptedLength(plain, size);
        const start = a % (total + 1);
        const end = start + (b % (total - start + 1));
        const mapping = recordsForCipherRange(start, end, plain, size);
        expect(mapping.includesHeader).toBe(start < HEADER_LENGTH && end > start);
        for (let i = 0; i < recordCount(plain, size); i++) {
          const span = recordSpan(i, plain, size);
          const overlaps = start < end && span.cipherStart < end && span.cipherEnd > start;
          expect(i >= mapping.firstRecord && i < mapping.endRecord).toBe(overlaps);
        }
      }),
    );
  });

  it('rejects ranges outside the file', () => {
    expect(() => recordsForCipherRange(0, encryptedLength(10) + 1, 10)).toThrow(CryptoError);
    expect(() => recordsForCipherRange(5, 4, 10)).toThrow(CryptoError);
    expect(() => recordSpan(1, 10)).toThrow(CryptoError);
  });
});

describe('header and nonce', () => {
  it('writes and reads the header', () => {
    const header = encodeHeader(4096);
    expect(Array.from(header.bytes)).toEqual([0x53, 0x44, 0x52, 0x50, 1, 0, 0, 0, 0, 0, 0x10, 0]);
    expect(parseHeader(header.bytes).recordSize).toBe(4096);
  });

  it('rejects a foreign, altered or future header with typed errors', () => {
    const good = encodeHeader(4096).bytes;
    const withByte = (index: number, value: number) => {
      const copy = new Uint8Array(good);
      copy[index] = value;
      return copy;
    };
    expect(() => parseHeader(withByte(0, 0x50))).toThrow(expect.objectContaining({ code: 'INTEGRITY' }));
    expect(() => parseHeader(withByte(4, 2))).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_VERSION' }));
    expect(() => parseHeader(withByte(6, 1))).toThrow(expect.objectContaining({ code: 'INTEGRITY' }));
    expect(() => parseHeader(withByte(8, 0xff))).toThrow(expect.objectContaining({ code: 'INTEGRITY' }));
    expect(() => parseHeader(good.subarray(0, 11))).toThrow(expect.objectContaining({ code: 'INTEGRITY' }));
  });

  it('derives nonces from IV, counter and last flag exactly as the node implementation', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 12, maxLength: 12 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.boolean(), (iv, index, last) => {
        expect(Buffer.from(recordNonce(iv, index, last))).toEqual(nonceFor(Buffer.from(iv), index, last));
      }),
    );
  });

  it('never repeats a nonce within a file', () => {
    const iv = new Uint8Array(12).fill(0xa5);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      for (const last of [false, true]) seen.add(Buffer.from(recordNonce(iv, i, last)).toString('hex'));
    }
    expect(seen.size).toBe(4000);
    expect(() => recordNonce(iv, 2 ** 32, false)).toThrow(CryptoError);
  });
});
