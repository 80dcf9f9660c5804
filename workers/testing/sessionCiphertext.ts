// Ways for tests, the crypto vectors and the benchmarks to pull a session's ciphertext that uploads
// do not use (uploads ask for request bodies, EncryptionSession.readBody): all of it in one array,
// or as a pull-driven stream. Both go through the session's one read path, readChunks.
import { concatBytes } from '../../crypto/index.ts';
import type { EncryptionSession } from '../encryption-session.ts';

/** Bytes asked of the worker per stream pull. */
const STREAM_PULL_BYTES = 1024 * 1024;

type CiphertextReader = Pick<EncryptionSession, 'readChunks' | 'encryptedLength'>;

/** Ciphertext bytes [start, end) in one array (copies when the range spans records). */
export async function readCiphertext(session: CiphertextReader, start: number, end: number): Promise<Uint8Array> {
  const chunks = await session.readChunks(start, end);
  return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
}

/** The ciphertext from byte `from` to the end, produced as fast as the stream is read. */
export function ciphertextStream(session: CiphertextReader, from = 0): ReadableStream<Uint8Array> {
  let position = from;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (position >= session.encryptedLength) {
          controller.close();
          return;
        }
        const end = Math.min(session.encryptedLength, position + STREAM_PULL_BYTES);
        const chunks = await session.readChunks(position, end);
        position = end;
        for (const chunk of chunks) controller.enqueue(chunk);
        if (position >= session.encryptedLength) controller.close();
      },
    },
    // One pull ahead: the next range is on its way while the consumer handles this one.
    { highWaterMark: 2 },
  );
}
