import { describe, expect, it } from 'vitest';
import { PROCESSING_REASONS } from '../../../lib/userTexts.ts';
import { asProcessingFailure, ProcessingFailure } from '../engine/processingFailure.ts';
import { ChunkBodyTimeoutError, ReadAheadCiphertextSource, SourceReadError, type CiphertextRange } from './ciphertextSource.ts';

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
