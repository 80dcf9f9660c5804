import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatheringWriter } from './gathering-writer.ts';

const KiB = 1024;

/** The real file handle, with its writev calls counted. */
function countingWrites(handle: FileHandle): { handle: FileHandle; writes: () => number } {
  let writes = 0;
  const counted = new Proxy(handle, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === 'writev') {
        return (...args: Parameters<FileHandle['writev']>) => {
          writes += 1;
          return target.writev(...args);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { handle: counted, writes: () => writes };
}

/** Pieces as a socket hands them over: up to 64 KiB, of varied sizes, with known bytes. */
function socketPieces(total: number): Buffer[] {
  const pieces: Buffer[] = [];
  let made = 0;
  let seed = 7;
  while (made < total) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const size = Math.min(total - made, 1 + (seed % (64 * KiB)));
    const piece = Buffer.alloc(size);
    for (let i = 0; i < size; i++) piece[i] = (made + i) % 251;
    pieces.push(piece);
    made += size;
  }
  return pieces;
}

describe('GatheringWriter', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sealdrop-gathering-'));
    file = path.join(dir, 'upload');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a body that arrives in small pieces in few large writes, every byte in place', async () => {
    const raw = await open(file, 'w+');
    const { handle, writes } = countingWrites(raw);
    const pieces = socketPieces(8 * 1024 * KiB);
    try {
      // No write for a pause here (a loaded machine can stretch the 1 ms gaps past the usual
      // 20 ms): the count then depends only on the minimum size.
      const writer = new GatheringWriter(handle, 0, 60_000);
      // A piece every millisecond: a sender slower than the disk, whose every piece used to find
      // the previous write done and start one of its own.
      for (const piece of pieces) {
        await writer.add(piece);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await writer.finish();
      expect(writer.position).toBe(8 * 1024 * KiB);
    } finally {
      await raw.close();
    }
    // Buffer.equals: toEqual compares 8 MiB element by element, for half a minute.
    expect(readFileSync(file).equals(Buffer.concat(pieces))).toBe(true);
    // At least 512 KiB per write while the body arrives: 16 for 8 MiB, one more for the tail.
    expect(pieces.length).toBeGreaterThan(200);
    expect(writes()).toBeLessThanOrEqual(17);
  });

  it('writes what a paused body brought without waiting for more, and the rest after an offset', async () => {
    const raw = await open(file, 'w+');
    await raw.write(Buffer.alloc(1000, 1), 0, 1000, 0);
    try {
      const writer = new GatheringWriter(raw, 1000);
      await writer.add(Buffer.alloc(100 * KiB, 2));
      // The sender goes quiet: what it sent is in the file soon, not only once more arrives.
      await expect.poll(() => statSync(file).size, { timeout: 2000, interval: 10 }).toBe(1000 + 100 * KiB);
      await writer.add(Buffer.alloc(10, 3));
      await writer.finish();
      expect(writer.position).toBe(1000 + 100 * KiB + 10);
    } finally {
      await raw.close();
    }
    const content = readFileSync(file);
    expect(content.subarray(0, 1000).every((byte) => byte === 1)).toBe(true);
    expect(content.subarray(1000, 1000 + 100 * KiB).every((byte) => byte === 2)).toBe(true);
    expect(content.subarray(1000 + 100 * KiB).every((byte) => byte === 3)).toBe(true);
  });

  it('finish() writes what is still below the batch size (a request that broke off keeps it)', async () => {
    const raw = await open(file, 'w+');
    try {
      const writer = new GatheringWriter(raw, 0);
      await writer.add(Buffer.alloc(3 * KiB, 9));
      await writer.finish();
      expect(writer.position).toBe(3 * KiB);
    } finally {
      await raw.close();
    }
    expect(statSync(file).size).toBe(3 * KiB);
  });
});
