/**
 * The main thread's view of one file being encrypted in the pool: its key handle, IV and exact
 * encrypted length (known before any byte is encrypted), ciphertext of any byte range on demand as
 * a request body (readBody), and the plaintext's SHA-256.
 *
 * Uploads ask for the ciphertext chunk by chunk in order and then for sha256(): the hash was
 * computed while the records went past, so the file is read once. A resumed upload asks from the
 * server's offset; the worker re-encrypts from the record holding that byte (same key, IV and
 * counter, so the bytes are identical to the first attempt).
 */
import type { Remote } from 'comlink';
import type { FileIvBase64, Sha256Hex, WrappedFileKey } from '../crypto/index.ts';
import { SpoolStalledError, type CiphertextSpool } from './ciphertext-spool.ts';
import type { CryptoWorkerApi, OpenedEncryption, SavedHashState } from './crypto-worker-api.ts';
import type { FileKeyHandle } from './pool-types.ts';

export interface EncryptionSessionInit {
  readonly api: Remote<CryptoWorkerApi>;
  readonly opened: OpenedEncryption;
  readonly key: FileKeyHandle;
  /** Called once when the session is closed (the pool's load accounting). */
  readonly onClose: () => void;
  /** Called once when the hash is known. */
  readonly onHashed: () => void;
  /** Where request bodies are spooled (disk-backed); null: built in memory. */
  readonly spool: CiphertextSpool | null;
}

/**
 * Spool files kept per session: the chunk on the wire and the one read ahead
 * (src/features/upload/transport/ciphertextSource.ts); anything older has been sent or dropped.
 */
const SPOOL_FILES_KEPT = 2;

/** Performance marks of a chunk the spool could not take (stalled, or disk or quota full). */
export const SPOOL_STALLED_MARK = 'sealdrop:spool-stalled';
export const SPOOL_FAILED_MARK = 'sealdrop:spool-failed';

/** Stalled spool calls in a row after which a session sends the rest of its chunks from memory. */
export const MAX_SPOOL_STALLS = 2;

function memoryBody(pieces: Uint8Array[]): Blob {
  return new Blob(pieces as Uint8Array<ArrayBuffer>[]);
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
  private spool: CiphertextSpool | null;
  private readonly spooled: string[] = [];
  private spoolCount = 0;
  private spoolStalls = 0;

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
    this.spool = init.spool;
  }

  /** Ciphertext bytes [start, end) as pieces (transferred from the worker, no copy). */
  readChunks(start: number, end: number): Promise<Uint8Array[]> {
    return this.api.readCiphertext(this.jobId, start, end);
  }

  /**
   * Ciphertext bytes [start, end) as a request body: a file of the upload spool that the browser
   * reads from disk (workers/ciphertext-spool.ts), or, without a spool, a Blob of the pieces in
   * memory. A Blob either way: Chromium sends a typed-array body several times slower than a Blob
   * (docs/upload.md). Bodies older than the last SPOOL_FILES_KEPT are deleted as new ones are made.
   *
   * A chunk the spool cannot take is sent from memory: after a full disk or quota this session
   * stops spooling; after a stalled OPFS call (SpoolStalledError) only that chunk is, unless the
   * spool stalls MAX_SPOOL_STALLS times in a row: a wedged spool costs at most that many time
   * limits, while the occasional lost answer (about one per 200 chunks under load) does not send
   * the rest of a 5 GiB upload from memory (which would undo the flat memory the spool is for).
   */
  async readBody(start: number, end: number): Promise<Blob> {
    const spool = this.spool;
    if (!spool) return memoryBody(await this.readChunks(start, end));
    const name = `${this.jobId}-${this.spoolCount++}`;
    this.spooled.push(name);
    for (const old of this.spooled.splice(0, Math.max(0, this.spooled.length - SPOOL_FILES_KEPT))) void spool.remove(old);
    const outcome = await this.api.spoolCiphertext(this.jobId, start, end, spool.pathOf(name), spool.callLimitMs);
    if (!outcome.spooled) {
      this.spoolFailed(outcome.reason, outcome.call);
      void spool.remove(name);
      return memoryBody(outcome.pieces);
    }
    try {
      const body = await spool.file(name);
      this.spoolStalls = 0;
      return body;
    } catch (error) {
      if (error instanceof SpoolStalledError) this.spoolFailed('stalled', error.call);
      else this.spoolFailed('failed');
      void spool.remove(name);
      return memoryBody(await this.readChunks(start, end));
    }
  }

  private spoolFailed(reason: 'stalled' | 'failed', call?: string): void {
    // Visible in the page's performance timeline (DevTools; bench:upload counts them per run).
    performance.mark(reason === 'stalled' ? SPOOL_STALLED_MARK : SPOOL_FAILED_MARK, { detail: { call } });
    if (reason === 'failed' || ++this.spoolStalls >= MAX_SPOOL_STALLS) this.spool = null;
  }

  /**
   * The newest snapshot of the plaintext's hash whose records lie wholly within the first
   * `confirmedCipherOffset` ciphertext bytes, or null: kept with the confirmed offset, so a later
   * page resumes the hash from it (OpenEncryptionOptions.reuse.hash) instead of from byte 0.
   */
  hashCheckpoint(confirmedCipherOffset: number): Promise<SavedHashState | null> {
    return this.api.encryptionHashCheckpoint(this.jobId, confirmedCipherOffset);
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
    const spool = this.spool;
    if (spool) for (const name of this.spooled.splice(0)) void spool.remove(name);
    try {
      await this.api.closeEncryption(this.jobId);
    } finally {
      this.onClose();
    }
  }
}
