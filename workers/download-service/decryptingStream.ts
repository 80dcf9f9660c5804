/**
 * Ciphertext in, plaintext out, record by record (crypto/'s RecordDecryptor, so exactly the
 * format the upload wrote). Several records are decrypted at once: WebCrypto runs each call on a
 * browser thread of its own, so keeping a few in flight overlaps decryption with the network and
 * the disk instead of doing one thing at a time. Order is kept because the decryptor takes each
 * record's bytes synchronously when it is pushed. Nothing is enqueued before its record has been
 * authenticated; any tampering errors the stream with DownloadError('INTEGRITY'), and a file that
 * decrypts to another size than the record says errors with 'SIZE_MISMATCH'.
 */
import {
  type Bytes,
  isCryptoError,
  decodeBase64Exact,
  asCipherBytes,
  RecordDecryptor,
  IV_LENGTH,
  HEADER_LENGTH,
  TAG_LENGTH,
} from '../../crypto/index.ts';
import type { CiphertextPieces } from './ciphertextPieces.ts';
import { DownloadError } from './downloadErrors.ts';

export interface DecryptingStreamInit {
  readonly key: CryptoKey;
  readonly iv: string;
  readonly plainSize: number;
  /** Ciphertext bytes pushed but not yet turned into plaintext; bounds memory and concurrency. */
  readonly maxInFlightBytes?: number;
}

const DEFAULT_MAX_IN_FLIGHT = 2 * 1024 * 1024;

interface InFlight {
  readonly plaintext: Promise<Uint8Array[]>;
  readonly cipherBytes: number;
  settled: boolean;
}

function asDownloadError(error: unknown): unknown {
  if (isCryptoError(error)) {
    // WORKER_FAILED cannot happen here (no worker); every other crypto code means the data is not
    // what was encrypted for this key and IV.
    return new DownloadError('INTEGRITY');
  }
  return error;
}

export function createDecryptingStream(source: CiphertextPieces, init: DecryptingStreamInit): ReadableStream<Uint8Array> {
  let decryptor: RecordDecryptor | null;
  try {
    // (crypto/file-key.ts parses IVs the same way, but pulls in RSA types the worker lib lacks.)
    decryptor = new RecordDecryptor(init.key, decodeBase64Exact(init.iv, IV_LENGTH, 'encryption IV'));
  } catch {
    throw new DownloadError('HEADERS', { case: 'invalid-iv' });
  }
  const maxInFlight = init.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT;
  /** The header first, then whole records, several at a time, so no record is split between pieces. */
  const pieceSize = () => {
    const header = decryptor?.header;
    if (!header) return HEADER_LENGTH;
    const record = header.recordSize + TAG_LENGTH;
    return record * Math.max(1, Math.floor(maxInFlight / 2 / record));
  };
  const queue: InFlight[] = [];
  let inFlightBytes = 0;
  let sourceDone = false;
  let produced = 0;

  const track = (plaintext: Promise<Uint8Array[]>, cipherBytes: number) => {
    const entry: InFlight = { plaintext, cipherBytes, settled: false };
    // Observed here, so a failure is never "unhandled" while it waits its turn in the queue.
    plaintext.then(
      () => (entry.settled = true),
      () => (entry.settled = true),
    );
    queue.push(entry);
    inFlightBytes += cipherBytes;
  };

  const release = () => {
    decryptor = null; // the key goes with it
    queue.length = 0;
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            // Read on while the oldest records are still being decrypted and there is room.
            const head0 = queue[0];
            const readMore = !sourceDone && inFlightBytes < maxInFlight && !(head0?.settled ?? false);
            if (readMore) {
              const piece = await source.read(pieceSize());
              if (piece === null) {
                sourceDone = true;
                track(decryptor!.finish(), 0);
              } else {
                // Bytes from the network are ciphertext by definition; the decryptor authenticates them.
                // Each record is its own entry, so the good ones go on before one that fails.
                const records = decryptor!.pushRecords(asCipherBytes(piece as Bytes));
                if (records.length === 0) track(Promise.resolve([]), piece.byteLength);
                records.forEach((record, i) => track(record.then((plaintext) => [plaintext]), i === 0 ? piece.byteLength : 0));
              }
              continue;
            }
            const head = queue.shift();
            if (!head) {
              if (produced !== init.plainSize) throw new DownloadError('SIZE_MISMATCH');
              release();
              controller.close();
              return;
            }
            inFlightBytes -= head.cipherBytes;
            const plaintext = await head.plaintext;
            let enqueued = false;
            for (const piece of plaintext) {
              produced += piece.byteLength;
              if (produced > init.plainSize) throw new DownloadError('SIZE_MISMATCH');
              if (piece.byteLength > 0) {
                controller.enqueue(piece);
                enqueued = true;
              }
            }
            // Returning without enqueueing would stall the reader: a pull that delivered nothing loops.
            if (enqueued) return;
          }
        } catch (error) {
          release();
          await source.cancel(error).catch(() => undefined);
          throw asDownloadError(error);
        }
      },
      async cancel(reason) {
        release();
        await source.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
