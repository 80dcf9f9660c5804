import { describe, expect, it } from 'vitest';
import { PROCESSING_REASONS } from '../../../lib/userTexts.ts';
import { asProcessingFailure, ProcessingFailure } from '../engine/processingFailure.ts';
import { ChunkBodyTimeoutError, ReadAheadCiphertextSource, SourceReadError, tusBodyStarts, type CiphertextRange } from './ciphertextSource.ts';

const SIZE = 40;

function range(readBody: CiphertextRange['readBody']): CiphertextRange {
  return { encryptedLength: SIZE, readBody };
}

describe('ReadAheadCiphertextSource', () => {
  it('serves the asked range and reads the next one ahead', async () => {
    const asked: string[] = [];
    const source = new ReadAheadCiphertextSource(range(async (start, end) => (asked.push(`${start}-${end}`), new Blob([new Uint8Array(end - start)]))));
    expect((await source.slice(0, 10)).value.size).toBe(10);
    expect((await source.slice(10, 20)).value.size).toBe(10);
    expect(asked).toEqual(['0-10', '10-20', '20-30']);
  });

  it('keeps the first body and the last one short, and reads ahead exactly what tus asks for next', async () => {
    const asked: string[] = [];
    // A ramp of 2 bytes with tus chunks of 10 over 40 bytes: as 16 MiB against 64 MiB chunks.
    const source = new ReadAheadCiphertextSource(
      range(async (start, end) => (asked.push(`${start}-${end}`), new Blob([new Uint8Array(end - start)]))),
      1000,
      2,
    );
    // What tus-js-client does: ask for a chunk from the offset, send what it gets, go on from there.
    const bodies: number[] = [];
    for (let offset = 0; offset < SIZE; ) {
      const { value, done } = await source.slice(offset, Math.min(offset + 10, SIZE));
      bodies.push(value.size);
      offset += value.size;
      expect(done).toBe(offset === SIZE);
    }
    expect(bodies).toEqual([2, 10, 10, 10, 6, 2]);
    expect(tusBodyStarts(SIZE, 10, 2)).toEqual([0, 2, 12, 22, 32, 38]);
    // Every body was the read-ahead of the one before: nothing was produced twice.
    expect(asked).toEqual(['0-2', '2-12', '12-22', '22-32', '32-38', '38-40']);
  });

  it('sends a short final body whole', async () => {
    const source = new ReadAheadCiphertextSource(range(async (start, end) => new Blob([new Uint8Array(end - start)])), 1000, 8);
    const bodies: number[] = [];
    for (let offset = 0; offset < SIZE; ) {
      const { value } = await source.slice(offset, Math.min(offset + 20, SIZE));
      bodies.push(value.size);
      offset += value.size;
    }
    // The last 12 bytes are not over twice the ramp: one body.
    expect(bodies).toEqual([8, 20, 12]);
  });

  it('fails a chunk whose body never comes (a wedged worker or storage call) instead of waiting for ever', async () => {
    const source = new ReadAheadCiphertextSource(
      range(() => new Promise<Blob>(() => undefined)),
      30,
    );
    const failure = await source.slice(0, 10).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SourceReadError);
    expect((failure as SourceReadError).cause).toBeInstanceOf(ChunkBodyTimeoutError);
    // The file's row then says what to do: reload, which continues from the server's offset.
    const processing = asProcessingFailure(failure);
    expect(processing).toBeInstanceOf(ProcessingFailure);
    expect((processing as ProcessingFailure).code).toBe('WORKER_UNRESPONSIVE');
    expect((processing as ProcessingFailure).reason).toBe(PROCESSING_REASONS.workerUnresponsive);
  });

  it('passes a read failure on as it came (not as a timeout)', async () => {
    const source = new ReadAheadCiphertextSource(range(() => Promise.reject(new Error('the file changed'))), 1000);
    const failure = await source.slice(0, 10).catch((error: unknown) => error);
    expect((failure as SourceReadError).cause).toEqual(new Error('the file changed'));
    expect((asProcessingFailure(failure) as ProcessingFailure).code).toBe('ENCRYPTION_FAILED');
  });
});
