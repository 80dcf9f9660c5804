// The ZIP writer against two independent references: client-zip (the archive it writes for the
// same entries must be byte-identical, and its predictLength exact) and yauzl (tests/support/zip.ts
// reads it, CRC-32 checked with node:zlib). ZIP64 is checked with a 4 GiB entry that is never held
// in memory: the archive's headers are kept, its data regions are read back as the zeros they were.
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { makeZip, predictLength } from 'client-zip';
import { fromRandomAccessReaderPromise, RandomAccessReader, type Entry } from 'yauzl';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../tests/support/zip.ts';
import { writeZip, type ZipWriterEntry } from './zipWriter.ts';

const lastModified = new Date(2026, 10, 21, 13, 45, 17);

function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* entriesOf(files: Array<{ name: string; bytes: Uint8Array }>, chunkSize: number): AsyncGenerator<ZipWriterEntry> {
  for (const file of files) yield { name: file.name, lastModified, input: chunked(file.bytes, chunkSize) };
}

const files = [
  { name: 'raw/day-1/part-01.bin', bytes: Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) & 255) },
  { name: 'empty.txt', bytes: new Uint8Array(0) },
  { name: 'Überweisung – März/ß 😀.pdf', bytes: new TextEncoder().encode('hello, archive') },
];

describe('writeZip', () => {
  it('writes the archive client-zip writes, byte for byte, of the length client-zip predicts', async () => {
    const ours = await readAll(writeZip(entriesOf(files, 65_536)));
    const reference = await readAll(makeZip(files.map((file) => ({ name: file.name, lastModified, input: file.bytes })), { buffersAreUTF8: true }));
    expect(ours.equals(reference)).toBe(true);
    expect(ours.length).toBe(Number(predictLength(files.map((file) => ({ name: file.name, size: file.bytes.length })))));
  });

  it('is read back by an independent reader with every CRC-32 right', async () => {
    const unzipped = await readZip(await readAll(writeZip(entriesOf(files, 1000))));
    expect(unzipped.map((entry) => entry.name)).toEqual(files.map((file) => file.name));
    unzipped.forEach((entry, i) => {
      expect(entry.compressionMethod).toBe(0);
      expect(entry.data.equals(files[i]!.bytes)).toBe(true);
    });
  });

  it('passes an error of a file on to the archive, and cancelling the archive cancels the file', async () => {
    const failing = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new Error('record 3 did not authenticate')) });
    async function* one() {
      yield { name: 'a.bin', lastModified, input: failing };
    }
    await expect(readAll(writeZip(one()))).rejects.toThrow('record 3 did not authenticate');

    let cancelled: unknown;
    const endless = new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(new Uint8Array(1024)), cancel: (reason) => void (cancelled = reason) });
    async function* two() {
      yield { name: 'b.bin', lastModified, input: endless };
    }
    const reader = writeZip(two()).getReader();
    for (let i = 0; i < 4; i++) await reader.read();
    await reader.cancel('user cancelled');
    expect(cancelled).toBe('user cancelled');
  });
});

/** An archive kept as its header pieces; everything between them is zeros (the data regions). */
class SparseArchive extends RandomAccessReader {
  readonly pieces: Array<{ at: number; bytes: Uint8Array }> = [];
  length = 0;

  override _readStreamForRange(start: number, end: number): Readable {
    const out = Buffer.alloc(end - start);
    for (const piece of this.pieces) {
      const from = Math.max(start, piece.at);
      const to = Math.min(end, piece.at + piece.bytes.length);
      if (from < to) out.set(piece.bytes.subarray(from - piece.at, to - piece.at), from - start);
    }
    return Readable.from([out]);
  }
}

describe('writeZip: ZIP64', () => {
  it('writes a 4 GiB entry and an entry past 4 GiB that yauzl reads back, at the predicted length', async () => {
    const bigSize = 2 ** 32 + 5;
    const zeros = new Uint8Array(4 * 1024 * 1024);
    let sent = 0;
    const big = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= bigSize) return controller.close();
        const chunk = zeros.subarray(0, Math.min(zeros.length, bigSize - sent));
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const tail = new TextEncoder().encode('after four gibibytes');
    async function* entries() {
      yield { name: 'big.bin', lastModified, input: big };
      yield { name: 'tail.txt', lastModified, input: chunked(tail, 7) };
    }
    const archive = new SparseArchive();
    for await (const chunk of writeZip(entries())) {
      // The big entry's data is the shared zero buffer: not kept (the reader reads zeros there).
      if (chunk.buffer !== zeros.buffer) archive.pieces.push({ at: archive.length, bytes: chunk });
      archive.length += chunk.length;
    }
    expect(archive.length).toBe(Number(predictLength([{ name: 'big.bin', size: bigSize }, { name: 'tail.txt', size: tail.length }])));

    const zip = await fromRandomAccessReaderPromise(archive, archive.length, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true });
    const read: Entry[] = [];
    let tailData: Buffer | undefined;
    for await (const entry of zip.eachEntry()) {
      read.push(entry);
      // Read while the archive is open (yauzl closes it after the last entry).
      if (entry.fileName === 'tail.txt') tailData = await readAll(Readable.toWeb(await zip.openReadStreamPromise(entry)) as ReadableStream<Uint8Array>);
    }
    expect(read.map((entry) => [entry.fileName, entry.uncompressedSize])).toEqual([['big.bin', bigSize], ['tail.txt', tail.length]]);
    let zerosCrc = 0;
    for (let left = bigSize; left > 0; left -= zeros.length) zerosCrc = crc32(zeros.subarray(0, Math.min(left, zeros.length)), zerosCrc);
    expect(read[0]!.crc32).toBe(zerosCrc);
    expect(read[1]!.crc32).toBe(crc32(tail));
    expect(tailData?.equals(tail)).toBe(true);
  }, 120_000);
});
