// The gathering of plaintext into blocks and their reuse: a block may be filled again only once the
// writable's write of it has settled, which a writable that holds on to its chunks shows.
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BlockPool } from './blockPool.ts';
import { blockGatherer, writeToDisk } from './diskWriter.ts';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

function streamOf(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

function cut(input: Uint8Array, sizes: number[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) {
    pieces.push(input.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

/**
 * A file whose writable, like a slow disk, holds each chunk it is given (no copy) for a while before
 * its write settles, and fails the write if the chunk's bytes changed meanwhile. It keeps what it
 * was given as it was when the write settled.
 */
function holdingFile(holdMs: number) {
  const written: Uint8Array[] = [];
  const buffersSeen = new Set<ArrayBufferLike>();
  let committed = false;
  let aborted = false;
  const handle = {
    async createWritable() {
      return new WritableStream<Uint8Array>({
        async write(chunk) {
          buffersSeen.add(chunk.buffer);
          const before = sha256(chunk);
          await delay(holdMs);
          if (sha256(chunk) !== before) throw new Error('a block was filled again while its write was in flight');
          written.push(chunk.slice());
        },
        close: () => void (committed = true),
        abort: () => void (aborted = true),
      });
    },
  } as unknown as FileSystemFileHandle;
  return { handle, written, buffersSeen, state: () => ({ committed, aborted }) };
}

describe('blockGatherer', () => {
  it('turns small pieces into full blocks (the last one shorter), counting every byte once', async () => {
    const counted: number[] = [];
    const input = randomBytes(10_413);
    const out: Uint8Array[] = [];
    await streamOf(cut(input, [300, 1000, 4096, 17, 3000, 2000]))
      .pipeThrough(blockGatherer(new BlockPool(4096), (count) => counted.push(count)))
      .pipeTo(new WritableStream({ write: (block) => void out.push(block.slice()) }));
    // The 4096-byte piece goes on as it is, after what had gathered before it.
    expect(out.map((block) => block.byteLength)).toEqual([1300, 4096, 4096, 921]);
    expect(counted).toEqual(out.map((block) => block.byteLength));
    expect(Buffer.concat(out).equals(input)).toBe(true);
  });
});

describe('BlockPool', () => {
  it('hands a block out again only after it was given back, and ignores bytes it did not lend', () => {
    const pool = new BlockPool(1024, 2);
    const first = pool.take();
    const second = pool.take();
    expect(second.buffer).not.toBe(first.buffer);
    pool.giveBack(new Uint8Array(1024));
    pool.giveBack(first.subarray(0, 10));
    pool.giveBack(first);
    const again = pool.take();
    expect(again.buffer).toBe(first.buffer);
    expect(again.byteLength).toBe(1024);
    expect(pool.take().buffer).not.toBe(second.buffer);
  });
});

describe('writeToDisk', () => {
  it('reuses blocks, but never one whose write has not settled: every byte lands as it was', async () => {
    const blockBytes = 4096;
    const input = randomBytes(blockBytes * 40 + 123);
    // Records smaller than a block, arriving far faster than the writable takes them.
    const pieces = cut(input, Array.from({ length: Math.ceil(input.length / 1000) }, () => 1000));
    const file = holdingFile(3);
    let counted = 0;
    await writeToDisk(streamOf(pieces), file.handle, {
      name: 'held.bin',
      signal: new AbortController().signal,
      blocks: new BlockPool(blockBytes),
      onBytes: (count) => (counted += count),
    });
    expect(file.state()).toEqual({ committed: true, aborted: false });
    expect(sha256(Buffer.concat(file.written))).toBe(sha256(input));
    expect(counted).toBe(input.length);
    expect(file.written).toHaveLength(41);
    // 41 writes from a handful of blocks: the ones gathered and queued while one is being written.
    expect(file.buffersSeen.size).toBeLessThanOrEqual(6);
  });

  it('one pool serves the files of a download in turn', async () => {
    const blocks = new BlockPool(4096);
    const seen = new Set<ArrayBufferLike>();
    for (const length of [4096 * 5, 4096 * 3 + 7]) {
      const input = randomBytes(length);
      const file = holdingFile(1);
      await writeToDisk(streamOf(cut(input, Array.from({ length: Math.ceil(length / 700) }, () => 700))), file.handle, {
        name: `file-${length}`,
        signal: new AbortController().signal,
        blocks,
        onBytes: () => undefined,
      });
      expect(sha256(Buffer.concat(file.written))).toBe(sha256(input));
      for (const buffer of file.buffersSeen) seen.add(buffer);
    }
    expect(seen.size).toBeLessThanOrEqual(6);
  });

  it('a failing source aborts the writable and nothing is committed', async () => {
    const file = holdingFile(1);
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(randomBytes(5000));
        controller.error(new Error('record did not authenticate'));
      },
    });
    await expect(
      writeToDisk(failing, file.handle, { name: 'bad.bin', signal: new AbortController().signal, blocks: new BlockPool(4096), onBytes: () => undefined }),
    ).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    expect(file.state()).toEqual({ committed: false, aborted: true });
  });
});
