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
import { CryptoError, type FileIvBase64, type Sha256Hex, type WrappedFileKey } from '../crypto/index.ts';
import { SpoolStalledError, type CiphertextSpool } from './ciphertext-spool.ts';
import type { CryptoWorkerApi, OpenedEncryption, SavedHashState } from './crypto-worker-api.ts';
import type { FileKeyHandle } from './pool-types.ts';
import type { SentSignature } from './sent-signature.ts';

export interface EncryptionSessionInit {
  readonly api: Remote<CryptoWorkerApi>;
  /** The encrypting worker alone: closing must reach it even when the hashing worker has died. */
  readonly closeApi: Remote<CryptoWorkerApi>;
  readonly opened: OpenedEncryption;
  readonly key: FileKeyHandle;
  /** Called once when the session is closed (the pool's load accounting). */
  readonly onClose: () => void;
  /** Called once when the hash is known. */
  readonly onHashed: () => void;
  /** Where request bodies are spooled (disk-backed); null: built in memory. */
  readonly spool: CiphertextSpool | null;
  /** How sha256() watches the hashing (default HASH_WATCH). */
  readonly hashWatch?: HashWatch;
}

/**
 * sha256() waits for hashing that may legitimately take minutes (a resumed file without a
 * checkpoint hashes its whole plaintext beside the upload), so it has no deadline. Instead it asks
 * the worker every `pollMs` how many records have been hashed, and fails with WORKER_FAILED after
 * `stalledPolls` polls in a row without progress (an unanswered poll counts as one): a worker that
 * is alive but whose file read or WebCrypto call wedged. A dead or silent worker is the heartbeat's
 * (worker-liveness.ts). Polls are counted, not timed, so sleep and throttled timers only delay it.
 */
export interface HashWatch {
  readonly pollMs: number;
  readonly stalledPolls: number;
}

/** About a minute without a hashed record. */
export const HASH_WATCH: HashWatch = { pollMs: 5_000, stalledPolls: 12 };

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
  readonly formatVersion: number;
  private readonly api: Remote<CryptoWorkerApi>;
  private readonly closeApi: Remote<CryptoWorkerApi>;
  private readonly jobId: string;
  private readonly onClose: () => void;
  private readonly onHashed: () => void;
  private digest: Promise<Sha256Hex> | undefined;
  private closed = false;
  private spool: CiphertextSpool | null;
  private readonly spooled: string[] = [];
  private spoolCount = 0;
  private spoolStalls = 0;
  private readonly hashWatch: HashWatch;

  constructor(init: EncryptionSessionInit) {
    this.api = init.api;
    this.closeApi = init.closeApi;
    this.jobId = init.opened.jobId;
    this.key = init.key;
    this.iv = init.opened.iv;
    this.wrappedKey = init.opened.wrappedKey;
    this.plainLength = init.opened.plainLength;
    this.encryptedLength = init.opened.encryptedLength;
    this.recordSize = init.opened.recordSize;
    this.formatVersion = init.opened.formatVersion;
    this.onClose = init.onClose;
    this.onHashed = init.onHashed;
    this.spool = init.spool;
    this.hashWatch = init.hashWatch ?? HASH_WATCH;
  }

  /** Ciphertext bytes [start, end) as pieces (transferred from the worker, no copy). */
  readChunks(start: number, end: number): Promise<Uint8Array[]> {
    return this.api.readCiphertext(this.jobId, start, end);
  }

  /**
   * Ciphertext bytes [start, end) as a request body: a file of the upload spool that the browser
   * reads from disk (workers/ciphertext-spool.ts), or, without a spool, a Blob of the pieces in
   * memory. A Blob either way, because browsers send a typed-array body far slower (figures in
   * docs/upload.md, "Measurements behind the choices"). Bodies older than the last
   * SPOOL_FILES_KEPT are deleted as new ones are made.
   *
   * A chunk the spool cannot take is sent from memory: after a full disk or quota this session
   * stops spooling; after a stalled OPFS call (SpoolStalledError) only that chunk is, unless the
   * spool stalls MAX_SPOOL_STALLS times in a row: a wedged spool costs at most that many time
   * limits, while an occasional lost answer does not undo the flat memory the spool is for (how
   * often answers are lost: docs/upload.md, "Every OPFS call of the spool has a time limit").
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

  /**
   * The content signature of the records holding ciphertext bytes [0, cipherEnd) (workers/sent-signature.ts):
   * stored before those bytes are handed to the network, so that a later page can check the file
   * against what may have been sent before it continues (verifySent).
   */
  signSent(cipherEnd: number): Promise<SentSignature> {
    return this.api.encryptionSignSent(this.jobId, cipherEnd);
  }

  /**
   * Encrypts the part of the file `expected` covers once more and compares: resolves with the
   * ciphertext length it vouches for; CryptoError SOURCE_CHANGED when the file is not what was sent.
   */
  verifySent(expected: SentSignature): Promise<number> {
    return this.api.encryptionVerifySent(this.jobId, expected);
  }

  /**
   * SHA-256 hex of the plaintext. Cheapest after the ciphertext was read to the end in order.
   * Rejects with WORKER_FAILED when the hashing stops advancing (HashWatch).
   */
  sha256(): Promise<Sha256Hex> {
    this.digest ??= this.watchHashing(this.api.encryptionSha256(this.jobId)).then((hex) => {
      this.onHashed();
      return hex;
    });
    return this.digest;
  }

  private watchHashing(digest: Promise<Sha256Hex>): Promise<Sha256Hex> {
    const { pollMs, stalledPolls } = this.hashWatch;
    return new Promise<Sha256Hex>((resolve, reject) => {
      let hashed = -1;
      let still = 0;
      let polling = false;
      const stalled = () => {
        if (++still < stalledPolls) return;
        clearInterval(timer);
        digest.catch(() => undefined);
        reject(new CryptoError('WORKER_FAILED', `hashing made no progress (${stalledPolls} checks in a row)`));
      };
      const timer = setInterval(() => {
        if (polling) return stalled();
        polling = true;
        this.api.encryptionHashProgress(this.jobId).then(
          (records) => {
            polling = false;
            if (records === hashed) return stalled();
            hashed = records;
            still = 0;
          },
          () => (polling = false),
        );
      }, pollMs);
      digest.then(
        (hex) => {
          clearInterval(timer);
          resolve(hex);
        },
        (error: unknown) => {
          clearInterval(timer);
          reject(error);
        },
      );
    });
  }

  /** Frees the worker's job (its readahead and reader); the key handle stays valid. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const spool = this.spool;
    if (spool) for (const name of this.spooled.splice(0)) void spool.remove(name);
    try {
      await this.closeApi.closeEncryption(this.jobId);
    } finally {
      this.onClose();
    }
  }
}
