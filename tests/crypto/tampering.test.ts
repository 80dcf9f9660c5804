/**
 * Every change to a valid ciphertext is rejected with a typed error, by both implementations:
 * bit flips, byte changes, truncation, extension, deletion, insertion, and record-level attacks
 * (reorder, duplicate, drop, splice from another file, swap of the final record).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decryptBytes, HEADER_LENGTH, TAG_LENGTH, type CryptoErrorCode } from '../../crypto/index.ts';
import { decryptBuffer, encryptBuffer, OfflineCryptoError } from '../../server/crypto/index.ts';
import { cipherBytes, deterministicBytes, expectCryptoError, fileSecrets } from './helpers.ts';

const RECORD = 32;
const SEALED_RECORD = RECORD + TAG_LENGTH;

interface Sample {
  raw: Buffer;
  iv: Buffer;
  key: CryptoKey;
  plain: Buffer;
  sealed: Buffer;
}

async function sample(seed: number, size: number): Promise<Sample> {
  const secrets = await fileSecrets(seed);
  const plain = deterministicBytes(size, seed + 17);
  return { ...secrets, plain, sealed: encryptBuffer(secrets.raw, secrets.iv, plain, RECORD) };
}

function records(sealed: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = HEADER_LENGTH; offset < sealed.length; offset += SEALED_RECORD) out.push(sealed.subarray(offset, offset + SEALED_RECORD));
  return out;
}

function reassemble(sealed: Buffer, parts: Buffer[]): Buffer {
  return Buffer.concat([sealed.subarray(0, HEADER_LENGTH), ...parts]);
}

/**
 * Behind an intact magic in a complete header, a changed version byte reads as a format this code
 * does not know; everything else (a header cut short included) is an integrity failure.
 */
function expectedCodes(original: Buffer, mutated: Buffer): CryptoErrorCode[] {
  const magicIntact = mutated.length >= HEADER_LENGTH && mutated.subarray(0, 4).equals(original.subarray(0, 4));
  return magicIntact && mutated[4] !== original[4] ? ['UNSUPPORTED_VERSION'] : ['INTEGRITY'];
}

async function expectRejectedByBoth(s: Sample, mutated: Buffer): Promise<void> {
  expect(mutated.equals(s.sealed)).toBe(false);
  const codes = expectedCodes(s.sealed, mutated);
  await expectCryptoError(decryptBytes(s.key, s.iv, cipherBytes(mutated)), codes);
  let nodeError: unknown;
  try {
    decryptBuffer(s.raw, s.iv, mutated);
  } catch (error) {
    nodeError = error;
  }
  expect(nodeError).toBeInstanceOf(OfflineCryptoError);
  expect(codes).toContain((nodeError as OfflineCryptoError).code);
}

type Mutation = (s: Sample, other: Sample) => Buffer | undefined;

type ByteMutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; keep: number }
  | { kind: 'extend'; tail: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'insert'; at: number; data: Uint8Array };

const byteMutations: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('extend' as const), tail: fc.uint8Array({ minLength: 1, maxLength: 80 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), data: fc.uint8Array({ minLength: 1, maxLength: 60 }) }),
);

function applyByteMutation(sealed: Buffer, m: ByteMutation): Buffer {
  const copy = Buffer.from(sealed);
  switch (m.kind) {
    case 'flip': {
      const at = m.at % copy.length;
      copy[at] = copy[at]! ^ (1 << m.bit);
      return copy;
    }
    case 'set': {
      const at = m.at % copy.length;
      copy[at] = copy[at]! ^ m.value;
      return copy;
    }
    case 'truncate':
      return copy.subarray(0, m.keep % copy.length);
    case 'extend':
      return Buffer.concat([copy, Buffer.from(m.tail)]);
    case 'delete': {
      const at = m.at % copy.length;
      return Buffer.concat([copy.subarray(0, at), copy.subarray(at + m.length)]);
    }
    case 'insert': {
      const at = m.at % (copy.length + 1);
      return Buffer.concat([copy.subarray(0, at), Buffer.from(m.data), copy.subarray(at)]);
    }
  }
}

describe('tampering is always rejected', () => {
  it('a header cut short after a changed version byte is a truncation, not an unknown version', async () => {
    const s = await sample(1323365852, 0);
    const mutated = applyByteMutation(s.sealed, { kind: 'delete', at: 4, length: 18 });
    expect(mutated.length).toBeLessThan(HEADER_LENGTH);
    await expectRejectedByBoth(s, mutated);
  });

  it('random byte-level mutations of valid ciphertexts are never accepted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 400 }), fc.integer(), byteMutations, async (size, seed, mutation) => {
        const s = await sample(seed, size);
        const mutated = applyByteMutation(s.sealed, mutation);
        fc.pre(!mutated.equals(s.sealed));
        await expectRejectedByBoth(s, mutated);
      }),
      { numRuns: 400 },
    );
  });

  const recordAttacks: Record<string, Mutation> = {
    'swap two records': (s) => {
      const parts = records(s.sealed);
      if (parts.length < 2) return undefined;
      [parts[0], parts[1]] = [parts[1]!, parts[0]!];
      return reassemble(s.sealed, parts);
    },
    'duplicate a record': (s) => {
      const parts = records(s.sealed);
      parts.splice(1, 0, parts[0]!);
      return reassemble(s.sealed, parts);
    },
    'drop a middle record': (s) => {
      const parts = records(s.sealed);
      if (parts.length < 3) return undefined;
      parts.splice(1, 1);
      return reassemble(s.sealed, parts);
    },
    'truncate at a record boundary': (s) => {
      const parts = records(s.sealed);
      if (parts.length < 2) return undefined;
      return reassemble(s.sealed, parts.slice(0, -1));
    },
    'drop the last record and re-append a middle one as last': (s) => {
      const parts = records(s.sealed);
      if (parts.length < 3) return undefined;
      return reassemble(s.sealed, [...parts.slice(0, -1), parts[1]!]);
    },
    'splice a record from another file at the same index': (s, other) => {
      const parts = records(s.sealed);
      const foreign = records(other.sealed);
      const index = Math.min(parts.length, foreign.length) - 1;
      if (index < 0 || parts[index]!.length !== foreign[index]!.length) return undefined;
      parts[index] = foreign[index]!;
      return reassemble(s.sealed, parts);
    },
    "append another file's last record": (s, other) => {
      const foreign = records(other.sealed);
      return reassemble(s.sealed, [...records(s.sealed), foreign[foreign.length - 1]!]);
    },
    'only the header': (s) => s.sealed.subarray(0, HEADER_LENGTH),
    'empty input': () => Buffer.alloc(0),
  };

  for (const [name, attack] of Object.entries(recordAttacks)) {
    it(name, async () => {
      let applied = 0;
      for (const size of [0, 1, RECORD, RECORD + 1, 3 * RECORD, 3 * RECORD + 5, 7 * RECORD - 1]) {
        const s = await sample(size, size);
        const other = await sample(size + 1000, size);
        const mutated = attack(s, other);
        if (!mutated) continue;
        applied++;
        await expectRejectedByBoth(s, mutated);
      }
      expect(applied).toBeGreaterThan(0);
    });
  }

  it('a wrong key or a wrong IV is an integrity failure, not garbage output', async () => {
    const s = await sample(1, 200);
    const wrongKey = await fileSecrets(2);
    await expectCryptoError(decryptBytes(wrongKey.key, s.iv, cipherBytes(s.sealed)), 'INTEGRITY');
    const iv = Buffer.from(s.iv);
    iv[0] = iv[0]! ^ 1;
    await expectCryptoError(decryptBytes(s.key, iv, cipherBytes(s.sealed)), 'INTEGRITY');
  });
});
