/**
 * The main thread's view of one file being encrypted in the pool: its key handle, IV and exact
 * encrypted length (known before any byte is encrypted), ciphertext of any byte range on demand,
 * a pull-driven ReadableStream of the whole ciphertext, and the plaintext's SHA-256.
 *
 * Uploads read the ciphertext in order (stream() or successive read() calls) and then ask for
 * sha256(): the hash was computed while the records streamed past, so the file is read once.
 * A resumed upload just reads from the server's offset; the worker re-encrypts from the record
 * holding that byte (same key, IV and counter, so the bytes are identical to the first attempt).
 */
import type { Remote } from 'comlink';
import type { FileIvBase64, Sha256Hex, WrappedFileKey } from '../src/crypto/branded.ts';
import { concatBytes } from '../src/crypto/bytes.ts';
import type { CryptoWorkerApi, OpenedEncryption } from './crypto-worker-api.ts';
import type { FileKeyHandle } from './pool-types.ts';

/** Bytes asked of the worker per stream pull. */
export const STREAM_PULL_BYTES = 1024 * 1024;

export interface EncryptionSessionInit {
  readonly api: Remote<CryptoWorkerApi>;
  readonly opened: OpenedEncryption;
  readonly key: FileKeyHandle;
  /** Called once when the session is closed (the pool's load accounting). */
  readonly onClose: () => void;
  /** Called once when the hash is known. */
  readonly onHashed: () => void;
}

export class EncryptionSession {
  readonly key: FileKeyHandle;
  readonly iv: FileIvBase64;
  /** The file key wrapped for the recipient public key given at open, if one was. */
  readonly wrappedKey: WrappedFileKey | undefined;
  readonly plainLength: number;
  readonly encryptedLength: number;
  readonly recordSize: number;
  private readonly api: Remote<CryptoWorkerApi>;
  private readonly jobId: string;
  private readonly onClose: () => void;
  private readonly onHashed: () => void;
  private digest: Promise<Sha256Hex> | undefined;
  private closed = false;

  constructor(init: EncryptionSessionInit) {
    this.api = init.api;
    this.jobId = init.opened.jobId;
    this.key = init.key;
    this.iv = init.opened.iv;
    this.wrappedKey = init.opened.wrappedKey;
    this.plainLength = init.opened.plainLength;
    this.encryptedLength = init.opened.encryptedLength;
    this.recordSize = init.opened.recordSize;
    this.onClose = init.onClose;
    this.onHashed = init.onHashed;
  }

  /** Ciphertext bytes [start, end) as pieces (transferred from the worker, no copy). */
  readChunks(start: number, end: number): Promise<Uint8Array[]> {
    return this.api.readCiphertext(this.jobId, start, end);
  }

  /** Ciphertext bytes [start, end) in one array (copies when the range spans records). */
  async read(start: number, end: number): Promise<Uint8Array> {
    const chunks = await this.readChunks(start, end);
    return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
  }

  /** The ciphertext from byte `from` to the end, produced as fast as the stream is read. */
  stream(from = 0): ReadableStream<Uint8Array> {
    let position = from;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          if (position >= this.encryptedLength) {
            controller.close();
            return;
          }
          const end = Math.min(this.encryptedLength, position + STREAM_PULL_BYTES);
          const chunks = await this.readChunks(position, end);
          position = end;
          for (const chunk of chunks) controller.enqueue(chunk);
          if (position >= this.encryptedLength) controller.close();
        },
      },
      // One pull ahead: the next range is on its way while the consumer handles this one.
      { highWaterMark: 2 },
    );
  }

  /** SHA-256 hex of the plaintext. Cheapest after the ciphertext was read to the end in order. */
  sha256(): Promise<Sha256Hex> {
    this.digest ??= this.api.encryptionSha256(this.jobId).then((hex) => {
      this.onHashed();
      return hex;
    });
    return this.digest;
  }

  /** Frees the worker's job (its readahead and reader); the key handle stays valid. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.api.closeEncryption(this.jobId);
    } finally {
      this.onClose();
    }
  }
}
