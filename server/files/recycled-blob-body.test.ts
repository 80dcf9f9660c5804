import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { BlobReader } from '../storage/blob-store.ts';
import { RecycledBlobBody } from './recycled-blob-body.ts';

function readerOver(bytes: Buffer, shortBy = 0): BlobReader & { reads: number; closed: boolean } {
  const size = bytes.length - shortBy;
  return {
    reads: 0,
    closed: false,
    async read(into, length, position) {
      this.reads++;
      await sleep(0);
      return bytes.copy(into, 0, position, Math.min(size, position + length));
    },
    async close() {
      this.closed = true;
    },
  };
}

/**
 * A socket's part in a response: takes each chunk at once (so the body keeps reading) but sends it
 * only `holdMs` later, the way the operating system takes a write some time after Node hands it
 * over; the bytes are checked when they are sent, so a buffer read into again while its bytes
 * still wait shows as wrong bytes.
 */
function slowSocket(source: Buffer, start: number, holdMs: number) {
  let offset = start;
  let waiting = 0;
  const mismatches: number[] = [];
  const sends: Promise<void>[] = [];
  const socket = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      const at = offset;
      offset += chunk.length;
      waiting += chunk.length;
      sends.push(
        sleep(holdMs).then(() => {
          if (!chunk.equals(source.subarray(at, at + chunk.length))) mismatches.push(at);
          waiting -= chunk.length;
        }),
      );
      callback();
    },
  });
  return { socket, pending: () => waiting, mismatches, sent: async () => void (await Promise.all(sends)), end: () => offset };
}

describe('RecycledBlobBody', () => {
  it('sends the exact bytes of a range through a few buffers, never reading into one whose bytes are still on their way', async () => {
    const source = randomBytes(40 * 1024 + 123);
    const reader = readerOver(source);
    const start = 1000;
    const length = source.length - start - 7;
    const out = slowSocket(source, start, 15);
    const body = new RecycledBlobBody(reader, start, length, out.pending, { chunkBytes: 1024, buffers: 3 });
    await pipeline(body, out.socket);
    await out.sent();
    expect(out.mismatches).toEqual([]);
    expect(out.end()).toBe(start + length);
    expect(reader.reads).toBe(Math.ceil(length / 1024));
    expect(reader.closed).toBe(true);
  });

  it('fails with BLOB_SHORT when the blob ends before the range does, and closes it', async () => {
    const source = randomBytes(10_000);
    const reader = readerOver(source, 3000);
    const out = slowSocket(source, 0, 0);
    const body = new RecycledBlobBody(reader, 0, source.length, out.pending, { chunkBytes: 1024 });
    await expect(pipeline(body, out.socket)).rejects.toMatchObject({ code: 'BLOB_SHORT' });
    expect(reader.closed).toBe(true);
  });

  it('closes the blob when the response is cut off half-way', async () => {
    const source = randomBytes(64 * 1024);
    const reader = readerOver(source);
    const body = new RecycledBlobBody(reader, 0, source.length, () => 0, { chunkBytes: 1024 });
    let received = 0;
    const cut = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        callback(received >= 8 * 1024 ? new Error('client went away') : null);
      },
    });
    await expect(pipeline(body, cut)).rejects.toThrow('client went away');
    expect(reader.closed).toBe(true);
    expect(reader.reads).toBeLessThan(64);
  });
});
