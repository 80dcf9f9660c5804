import { describe, expect, it } from 'vitest';
import { ciphertextPieces } from './ciphertextPieces.ts';

const bytes = (length: number, from = 0) => Uint8Array.from({ length }, (_, i) => (from + i) % 251);

/** A byte stream that delivers `data` in pieces of `pieceSize`, as a network would, whatever the reader asks. */
function byteStream(data: Uint8Array, pieceSize: number, failAfter?: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      if (failAfter !== undefined && at >= failAfter) {
        controller.error(new Error('connection reset'));
        return;
      }
      if (at >= data.byteLength) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      const piece = data.slice(at, at + pieceSize);
      at += piece.byteLength;
      controller.enqueue(piece);
    },
  });
}

function defaultStream(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const piece = pieces.shift();
      if (piece) controller.enqueue(piece);
      else controller.close();
    },
  });
}

describe('ciphertextPieces', () => {
  it('fills each piece of a byte stream to exactly the size asked, however the network cut it, and is short only at the end', async () => {
    const data = bytes(1000);
    const pieces = ciphertextPieces(byteStream(data, 37));
    const joined: number[] = [];
    const sizes: number[] = [];
    for (const size of [12, 300, 300, 300, 300]) {
      const piece = await pieces.read(size);
      if (!piece) break;
      sizes.push(piece.byteLength);
      joined.push(...piece);
    }
    expect(sizes).toEqual([12, 300, 300, 300, 88]);
    expect(await pieces.read(300)).toBeNull();
    expect(Uint8Array.from(joined)).toEqual(data);
  });

  it('keeps a piece intact through the next read and fills its buffer again on the read after, instead of taking fresh memory', async () => {
    const data = bytes(1200);
    const pieces = ciphertextPieces(byteStream(data, 100));
    const first = (await pieces.read(300))!;
    const second = (await pieces.read(300))!;
    // The next read may not touch the piece before it: the decryptor may still hold its last record.
    expect(first).toEqual(data.subarray(0, 300));
    expect(second).toEqual(data.subarray(300, 600));
    const third = (await pieces.read(300))!;
    expect(third).toEqual(data.subarray(600, 900));
    // The third read took the first piece's buffer (it was transferred, so the old view is empty).
    expect(first.byteLength).toBe(0);
    expect(second).toEqual(data.subarray(300, 600));
    const fourth = (await pieces.read(300))!;
    expect(fourth).toEqual(data.subarray(900, 1200));
    expect(second.byteLength).toBe(0);
  });

  it('ends with null on an empty byte stream', async () => {
    expect(await ciphertextPieces(byteStream(new Uint8Array(0), 10)).read(64)).toBeNull();
  });

  it('rejects when the byte stream fails mid-piece, handing on none of that piece', async () => {
    const pieces = ciphertextPieces(byteStream(bytes(1000), 100, 250));
    expect((await pieces.read(200))?.byteLength).toBe(200);
    await expect(pieces.read(200)).rejects.toThrow('connection reset');
  });

  it('gives the pieces of any other stream as they come, skipping empty ones', async () => {
    const pieces = ciphertextPieces(defaultStream([bytes(5), new Uint8Array(0), bytes(700, 5)]));
    expect((await pieces.read(64))?.byteLength).toBe(5);
    expect((await pieces.read(64))?.byteLength).toBe(700);
    expect(await pieces.read(64)).toBeNull();
  });

  it('cancels the stream it reads', async () => {
    let cancelled: unknown;
    const stream = new ReadableStream({ type: 'bytes', pull() {}, cancel: (reason) => void (cancelled = reason) });
    await ciphertextPieces(stream).cancel('stop');
    expect(cancelled).toBe('stop');
  });
});
