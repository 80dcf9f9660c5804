// What the upload engine needs from outside, as narrow interfaces: the crypto pool (one encryption
// session per file), the network (one attempt per call: the lanes own retrying, so the retry
// budget is tested against fakes), and the record of unfinished tus uploads. The real ones are
// workers/pool.ts, transport/browserTransport.ts and transport/staleUploads.ts; the tests pass fakes.

import type { FileKeyHandle } from '../../../../workers/pool.ts';
import type { CiphertextRange } from '../transport/ciphertextSource.ts';
import type { EncryptedFile, SendHooks } from '../transport/multipartBatch.ts';
import type { TusSendOptions, TusSent } from '../transport/tusUpload.ts';

/**
 * Where an earlier page left a tus upload of this file. A lane given one continues that upload
 * (tus asks the server for its offset) instead of starting over; the session the pool opens for
 * the file must then use the same key and IV (issue 13: a persisted queue provides both).
 */
export interface ResumePoint {
  uploadUrl: string;
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
  readChunks(start: number, end: number): Promise<Uint8Array[]>;
  sha256(): Promise<string>;
  close(): Promise<void>;
}

export interface EncryptorPool {
  readonly size: number;
  openEncryption(file: Blob, options: { recipientPublicKey: string }): Promise<EncryptionSessionLike>;
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

/** The record of tus uploads not yet completed, kept across page loads. */
export interface LeftoverUploads {
  /** Cancels an unfinished upload of this file left by an earlier page (best effort). */
  cancelLeftover(file: FileIdentity): Promise<void>;
  remember(file: FileIdentity, uploadUrl: string): void;
  forget(file: FileIdentity): void;
}

/** A failed request as the page shows it: the error's code and the user-facing text (api/errors.ts). */
export interface DescribedFailure {
  code: string;
  message: string;
}
