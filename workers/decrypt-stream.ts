/**
 * Decryption as a ReadableStream on the main thread: ciphertext pieces (as fetch delivers them) are
 * transferred to a worker, which returns the plaintext of every record they complete. A few pieces
 * may be on their way to the worker at once (PIECES_IN_FLIGHT), so reading the source, decrypting in
 * the worker and handing plaintext on overlap; beyond that, reading is pull-driven, so a slow
 * consumer (disk, ZIP) slows the download instead of filling memory. Any tampering, truncation or
 * extension errors the stream with CryptoError('INTEGRITY'); nothing unauthenticated is enqueued.
 */
import { transfer, type Remote } from 'comlink';
import type { Bytes } from '../src/crypto/bytes.ts';
import type { CryptoWorkerApi } from './crypto-worker-api.ts';

const PIECES_IN_FLIGHT = 4;

export interface DecryptStreamInit {
  readonly api: Remote<CryptoWorkerApi>;
  /** Resolves to the worker's decryption job id once the key is in place on that worker. */
  readonly open: () => Promise<string>;
  readonly source: ReadableStream<Uint8Array>;
  readonly onDone: () => void;
}

/** A piece we may transfer: it must own its whole ArrayBuffer, or it is copied first. */
function transferable(piece: Uint8Array): Bytes {
  const buffer = piece.buffer;
  if (buffer instanceof ArrayBuffer && piece.byteOffset === 0 && piece.byteLength === buffer.byteLength) return piece as Bytes;
  return new Uint8Array(piece);
}

export function createDecryptStream({ api, open, source, onDone }: DecryptStreamInit): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let jobId = '';
  let sourceDone = false;
  let finished = false;
  // Worker calls in the order they were made; the worker handles them in the same order.
  const inFlight: Array<Promise<Uint8Array[]>> = [];
  const finish = () => {
    if (!finished) {
      finished = true;
      onDone();
    }
  };
  const fill = async () => {
    while (!sourceDone && inFlight.length < PIECES_IN_FLIGHT) {
      const { value, done } = await reader.read();
      if (done) {
        sourceDone = true;
        const last = api.finishDecryption(jobId);
        last.catch(() => undefined);
        inFlight.push(last);
      } else if (value.byteLength > 0) {
        const piece = transferable(value);
        const pending = api.pushCiphertext(jobId, transfer(piece, [piece.buffer]));
        pending.catch(() => undefined); // awaited in order below; avoid an unhandled rejection meanwhile
        inFlight.push(pending);
      }
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start: async () => {
        try {
          jobId = await open();
        } catch (error) {
          finish();
          await reader.cancel(error).catch(() => undefined);
          throw error;
        }
      },
      pull: async (controller) => {
        try {
          for (;;) {
            await fill();
            const next = inFlight.shift();
            if (!next) {
              controller.close();
              finish();
              return;
            }
            const plain = await next;
            for (const chunk of plain) controller.enqueue(chunk);
            if (sourceDone && inFlight.length === 0) {
              controller.close();
              finish();
              return;
            }
            if (plain.length > 0) return;
          }
        } catch (error) {
          finish();
          await reader.cancel(error).catch(() => undefined);
          throw error;
        }
      },
      cancel: async (reason) => {
        finish();
        await reader.cancel(reason).catch(() => undefined);
        if (jobId) await api.abortDecryption(jobId);
      },
    },
    { highWaterMark: 0 },
  );
}
