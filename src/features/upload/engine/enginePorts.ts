// What the upload engine needs from outside, as narrow interfaces: the crypto pool (one encryption
// session per file), the network (one attempt per call: the lanes own retrying, so the retry
// budget is tested against fakes), and the journal of unfinished tus uploads. The real ones are
// workers/pool.ts, transport/browserTransport.ts and resume/uploadJournal.ts; the tests pass fakes.

import type { MultipartFraming, WrittenFilePart } from '../../../../contract/upload-multipart.ts';
import type { FileKeyHandle, SentSignature } from '../../../../workers/index.ts';
import type { CiphertextRange } from '../transport/ciphertextSource.ts';
import type { EncryptedFile, SendHooks } from '../transport/multipartBatch.ts';
import type { TusSendOptions, TusSent } from '../transport/tusUpload.ts';
import type { HashPlacement } from './uploadLimits.ts';

export type { SentSignature } from '../../../../workers/index.ts';

/**
 * What, besides the key and IV, decides the ciphertext of a file (docs/format.md, "Layout"): the
 * format version of its header and its record size. A resume must use exactly the parameters the
 * first page encrypted with, or record i would cover other bytes under the same nonce.
 */
export interface CiphertextFormat {
  readonly version: number;
  readonly recordSize: number;
}

/**
 * Where an earlier page (or an earlier attempt) left a tus upload of this very file, with the file's
 * key back in the pool and its IV (resume/uploadJournal.ts). A lane given one continues that upload
 * from the offset the server reports with the same key, IV and format, after checking the file
 * against the signature of what may have been sent (docs/format.md, "Resuming and nonce reuse"), so
 * the stored ciphertext is the same as an uninterrupted upload's.
 */
export interface ResumePoint {
  /** null: the earlier page stored the key but never created the upload. */
  uploadUrl: string | null;
  /** Released with the file's session, like a fresh key. */
  key: FileKeyHandle;
  iv: string;
  /** The parameters the first page encrypted with (bound to the stored key). */
  format: CiphertextFormat;
  /** The ciphertext length the first page announced. */
  encryptedLength: number;
  /** The content signature of every ciphertext byte the earlier page handed to the network; absent: none was. */
  sent?: SentSignature;
  /** The hash state at the last stored checkpoint: only the records after it are hashed again. */
  hash?: HashCheckpoint;
}

/**
 * The plaintext's SHA-256 state after its first `records` records (base64 of hash-wasm's saved
 * state, workers/hash-checkpoints.ts). No key material: a state that does not load only means the
 * file is hashed from byte 0 again.
 */
export interface HashCheckpoint {
  readonly records: number;
  readonly state: string;
}

export interface UploadFile {
  id: string;
  file: File;
  name: string;
  relativePath: string;
  size: number;
  lastModified: number;
  resume?: ResumePoint;
}

/** What the engine needs of an EncryptionSession (workers/encryption-session.ts). */
export interface EncryptionSessionLike extends CiphertextRange {
  readonly key: FileKeyHandle;
  readonly iv: string;
  readonly wrappedKey: string | undefined;
  readonly recordSize: number;
  readonly formatVersion: number;
  /** The content signature of the records holding ciphertext bytes [0, cipherEnd). */
  signSent(cipherEnd: number): Promise<SentSignature>;
  /**
   * Encrypts the part of the file `expected` covers once more: resolves with the ciphertext length
   * it vouches for; rejects with CryptoError SOURCE_CHANGED when the file differs from what was sent.
   */
  verifySent(expected: SentSignature): Promise<number>;
  sha256(): Promise<string>;
  /** The newest hash snapshot within the first `confirmedCipherOffset` ciphertext bytes, or null. */
  hashCheckpoint(confirmedCipherOffset: number): Promise<HashCheckpoint | null>;
  close(): Promise<void>;
}

export interface OpenOptions {
  recipientPublicKey: string;
  /** The record size to encrypt with (a resumed upload's stored one); default the format's. */
  recordSize?: number;
  /** Encrypt with this key and IV (a resumed upload of the same bytes) instead of fresh ones. */
  reuse?: { key: FileKeyHandle; iv: string; hash?: HashCheckpoint };
  /** Where the file is hashed (uploadLimits.ts, hashPlacementFor); default the pool's choice. */
  hashPlacement?: HashPlacement;
}

/**
 * One small file encrypted whole: its ciphertext (bytes in memory, or within its whole multipart
 * part that the worker wrote into an upload spool file: `written`), wrapped key, IV and the
 * plaintext's SHA-256. `release` once the ciphertext is no longer needed (its batch answered or
 * given up), so the spool file can go.
 */
export type SmallFileEncryption =
  | ({
      readonly ok: true;
      readonly iv: string;
      readonly wrappedKey: string;
      readonly cipherSize: number;
      readonly sha256: string;
      readonly release: () => void;
    } & ({ readonly ciphertext: Uint8Array; readonly written?: undefined } | { readonly written: WrittenFilePart; readonly ciphertext?: undefined }))
  | { readonly ok: false; readonly stage: 'encrypt' | 'hash'; readonly error: Error };

export interface EncryptorPool {
  readonly size: number;
  openEncryption(file: Blob, options: OpenOptions): Promise<EncryptionSessionLike>;
  /**
   * Small files, a group in one message: each encrypted whole and hashed, results in the order of
   * `files` (a failed file carries its error). Rejects as a whole only when the pool cannot work.
   */
  encryptSmallFiles(files: readonly Blob[], options: { recipientPublicKey: string; framing?: MultipartFraming }): Promise<SmallFileEncryption[]>;
  /** Forgets a file key in the workers (each open made one). */
  releaseKey(key: FileKeyHandle): Promise<void>;
}

/** One multipart request; resolves with the answer's body, unchecked. */
export interface BatchTransport {
  sendBatch(linkToken: string, files: readonly EncryptedFile[], hooks: SendHooks): Promise<unknown>;
}

export interface CompletedUpload {
  upload_id: string;
  file_hash: string;
}

export interface ResumableTransport {
  /** One tus session: until the upload is whole, or the first failure. */
  sendLarge(options: TusSendOptions): Promise<TusSent>;
  /** One `POST .../complete`; resolves with the answer's body, unchecked. */
  complete(linkToken: string, uploads: readonly CompletedUpload[], hooks: { signal: AbortSignal }): Promise<unknown>;
}

export type UploadTransport = BatchTransport & ResumableTransport;

/** What identifies a file across page loads (no key material). */
export interface FileIdentity {
  linkToken: string;
  relativePath: string;
  name: string;
  size: number;
  lastModified: number;
}

/**
 * The persisted record of unfinished large uploads, kept across page loads (resume/uploadJournal.ts).
 * Its writes never fail a file: a journal that cannot store only costs the ability to resume.
 */
export interface UploadJournal {
  /**
   * Before a file starts with a new key: cancels (tus DELETE) and forgets what an earlier attempt
   * left at the same path, whatever its size and date (a changed file is never resumed).
   */
  discardEarlier(file: FileIdentity): Promise<void>;
  /** Before the first byte leaves: the session's key (wrapped, never in clear) and IV. */
  opened(file: FileIdentity, session: EncryptionSessionLike): Promise<void>;
  /**
   * Before ciphertext bytes are handed to the network: the content signature of the records they
   * reach. Resolves once it is stored, or once storing failed (the upload goes on; a later page
   * that finds the server holding more than the stored signature covers starts the file over).
   */
  sent(file: FileIdentity, signature: SentSignature): Promise<void>;
  /** The tus upload exists at this URL. */
  created(file: FileIdentity, uploadUrl: string): void;
  /** The server confirmed this many ciphertext bytes. */
  confirmed(file: FileIdentity, offset: number): void;
  /** A newer hash snapshot within the confirmed bytes (kept so a later page resumes the hash from it). */
  hashCheckpoint(file: FileIdentity, checkpoint: HashCheckpoint): void;
  /** A large file is stored: its entry and wrapped key are deleted. */
  completed(file: FileIdentity): void;
  /**
   * Files of either lane are stored (all those one server answer confirmed): remembered (identity
   * only, no key) until the link has nothing unfinished left, so that selecting the same folder
   * again after an interruption does not send them twice.
   */
  deliveredMany(files: readonly FileIdentity[]): void;
}

/** A failed request as the page shows it: the error's code and the user-facing text (api/errors.ts). */
export interface DescribedFailure {
  code: string;
  message: string;
}
