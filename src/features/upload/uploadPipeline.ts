/**
 * One upload run: every file of the run goes from the user's disk, through the crypto worker pool,
 * to the server, with bounded memory and real backpressure.
 *
 *   small files (<= SMALL_FILE_MAX_BYTES): a few at a time are hashed and encrypted whole in the
 *     pool, then gathered into batches (<= MAX_BATCH_FILES files, <= MAX_BATCH_BYTES) sent with the
 *     one-request multipart upload; at most MAX_BATCHES_IN_FLIGHT batches are on the wire, and
 *     encryption waits for a free slot instead of piling ciphertext up in memory.
 *   large files: LARGE_FILES_AT_ONCE at a time, each streamed through tus: the pool encrypts the
 *     chunk being asked for (and one ahead) while the SHA-256 is computed on the way; after the
 *     last byte the hash completes the upload, which is when the server creates the file record.
 *
 * Both lanes run at the same time. Everything the page shows comes out through `events` (the
 * controller batches them into the store a few times per second); the returned summary decides the
 * run's outcome messages (runOutcome.ts). Nothing here touches React, Redux or timers for pacing.
 */
import type { FileKeyHandle } from '../../../workers/pool.ts';
import type { UploadResult } from '../../api/types.ts';
import { checkFileSignature } from './contentSignature.ts';
import { forEachConcurrent, Semaphore } from './concurrency.ts';
import { isUploadResult, matchResults, type FileOutcome, type SentFile } from './resultMatching.ts';
import { SourceReadError, type CiphertextRange } from './transport/ciphertextSource.ts';
import type { EncryptedFile, SendHooks } from './transport/multipartBatch.ts';
import { cancelLeftoverUpload, forgetUpload, rememberUpload, type FileIdentity } from './transport/staleUploads.ts';
import { isTransportError } from './transport/transportError.ts';
import type { TusSendOptions, TusSent } from './transport/tusUpload.ts';

export const SMALL_FILE_MAX_BYTES = 8 * 1024 * 1024;
export const MAX_BATCH_FILES = 100;
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;
export const MAX_BATCHES_IN_FLIGHT = 2;
export const LARGE_FILES_AT_ONCE = 2;
/** Opening a file in the pool takes milliseconds; this long means a worker stopped answering. */
export const OPEN_TIMEOUT_MS = 60_000;
export const WORKER_UNRESPONSIVE = 'the encryption worker did not respond; please reload the page';

export interface PipelineFile {
  id: string;
  file: File;
  name: string;
  relativePath: string;
  size: number;
  lastModified: number;
}

/** What the pipeline needs of an EncryptionSession (workers/encryption-session.ts). */
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

export interface UploadTransport {
  sendBatch(linkToken: string, files: readonly EncryptedFile[], hooks: SendHooks): Promise<unknown>;
  sendLarge(options: TusSendOptions): Promise<TusSent>;
  complete(linkToken: string, uploads: ReadonlyArray<{ upload_id: string; file_hash: string }>, hooks: Omit<SendHooks, 'onProgress'>): Promise<unknown>;
}

export type ProcessingStatus = 'hashing' | 'encrypting' | 'pending' | 'uploading';

export type FinalOutcome =
  | { kind: 'stored'; serverId: number; sha256: string }
  | { kind: 'server-failed'; error: string }
  | { kind: 'unreported'; error: string }
  | { kind: 'request-failed'; reason: string }
  | { kind: 'processing-failed'; error: string; reason: string };

export interface PipelineEvents {
  statusChanged(id: string, status: ProcessingStatus): void;
  /** Share of the file sent, 0..1. */
  progressed(id: string, fraction: number): void;
  waiting(id: string, waiting: boolean): void;
  finished(id: string, outcome: FinalOutcome): void;
  /** The run's first bytes are about to go to the server. */
  sendingStarted(): void;
  /** A response body that is not an Upload result. */
  emptyResponse(): void;
}

export interface PipelineOptions {
  linkToken: string;
  recipientPublicKey: string;
  performMimeCheck: boolean;
  pool: EncryptorPool;
  transport: UploadTransport;
  /** Describes a failed request the way the page shows it (api/errors.ts). */
  describeError: (error: unknown) => string;
  signal: AbortSignal;
}

/** A failure of the client-side work on one file, with the per-file text and the toast's reason. */
class ProcessingFailure extends Error {
  override readonly name = 'ProcessingFailure';
  readonly code = 'PROCESSING_FAILED';
  constructor(
    readonly fileError: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

function encryptionFailed(error: unknown): ProcessingFailure {
  const reason = reasonOf(error);
  return new ProcessingFailure(`Encryption failed: ${reason}`, reason);
}

function hashingFailed(error: unknown): ProcessingFailure {
  return new ProcessingFailure('Hashing failed', reasonOf(error));
}

function toFinal(outcome: FileOutcome, sha256: string): FinalOutcome {
  if (outcome.ok) return { kind: 'stored', serverId: outcome.serverId, sha256 };
  return outcome.unreported ? { kind: 'unreported', error: outcome.error } : { kind: 'server-failed', error: outcome.error };
}

interface ReadyFile {
  source: PipelineFile;
  encrypted: EncryptedFile;
}

export class UploadPipeline {
  private sendingAnnounced = false;

  constructor(
    private readonly options: PipelineOptions,
    private readonly events: PipelineEvents,
  ) {}

  async run(files: readonly PipelineFile[]): Promise<void> {
    const small = files.filter((f) => f.size <= SMALL_FILE_MAX_BYTES);
    const large = files.filter((f) => f.size > SMALL_FILE_MAX_BYTES);
    await Promise.all([this.smallLane(small), forEachConcurrent(large, LARGE_FILES_AT_ONCE, (file) => this.sendLarge(file))]);
  }

  private get aborted(): boolean {
    return this.options.signal.aborted;
  }

  private announceSending(): void {
    if (this.sendingAnnounced) return;
    this.sendingAnnounced = true;
    this.events.sendingStarted();
  }

  private async checkSignature(file: PipelineFile): Promise<void> {
    if (!this.options.performMimeCheck) return;
    let check;
    try {
      check = await checkFileSignature(file.file);
    } catch (error) {
      throw hashingFailed(error);
    }
    if (!check.ok) throw new ProcessingFailure(check.reason, check.reason);
  }

  /**
   * Opens the file in the pool. A worker that never answers would leave the run waiting forever
   * (the pool has no timeout), so after OPEN_TIMEOUT_MS the file fails with a clear reason instead.
   */
  private async open(file: PipelineFile): Promise<EncryptionSessionLike> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const opening = this.options.pool.openEncryption(file.file, { recipientPublicKey: this.options.recipientPublicKey });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(WORKER_UNRESPONSIVE)), OPEN_TIMEOUT_MS);
    });
    try {
      return await Promise.race([opening, timeout]);
    } catch (error) {
      // A session that opens after all is closed again.
      opening.then((late) => this.finish(late), () => undefined).catch(() => undefined);
      throw encryptionFailed(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends a file's session and forgets its key (the wrapped copy went to the server). */
  private async finish(session: EncryptionSessionLike): Promise<void> {
    await session.close().catch(() => undefined);
    await this.options.pool.releaseKey(session.key).catch(() => undefined);
  }

  private fail(file: PipelineFile, error: unknown): void {
    if (this.aborted) return;
    if (error instanceof ProcessingFailure) {
      this.events.finished(file.id, { kind: 'processing-failed', error: error.fileError, reason: error.reason });
    } else {
      this.events.finished(file.id, { kind: 'request-failed', reason: this.options.describeError(error) });
    }
  }

  // ------------------------------------------------------------------ small files: batches

  private async smallLane(files: readonly PipelineFile[]): Promise<void> {
    if (files.length === 0) return;
    const slots = new Semaphore(MAX_BATCHES_IN_FLIGHT);
    const sending: Promise<void>[] = [];
    let batch: ReadyFile[] = [];
    let batchBytes = 0;
    const dispatch = async () => {
      const full = batch;
      batch = [];
      batchBytes = 0;
      await slots.acquire();
      sending.push(this.sendBatch(full).finally(() => slots.release()));
    };
    await forEachConcurrent(files, this.options.pool.size * 2, async (file) => {
      if (this.aborted) return;
      const ready = await this.prepareSmall(file);
      if (!ready) return;
      if (batch.length > 0 && batchBytes + ready.encrypted.cipherSize > MAX_BATCH_BYTES) await dispatch();
      batch.push(ready);
      batchBytes += ready.encrypted.cipherSize;
      if (batch.length >= MAX_BATCH_FILES) await dispatch();
    });
    if (batch.length > 0) await dispatch();
    await Promise.all(sending);
  }

  private async prepareSmall(file: PipelineFile): Promise<ReadyFile | null> {
    const { events } = this;
    try {
      events.statusChanged(file.id, 'hashing');
      await this.checkSignature(file);
      const session = await this.open(file);
      try {
        events.statusChanged(file.id, 'encrypting');
        let chunks: Uint8Array[];
        try {
          chunks = await session.readChunks(0, session.encryptedLength);
        } catch (error) {
          throw encryptionFailed(error);
        }
        let sha256: string;
        try {
          sha256 = await session.sha256();
        } catch (error) {
          throw hashingFailed(error);
        }
        events.statusChanged(file.id, 'pending');
        return {
          source: file,
          encrypted: {
            name: file.name,
            relativePath: file.relativePath,
            plainSize: file.size,
            ciphertext: chunks,
            cipherSize: session.encryptedLength,
            encryptedKey: session.wrappedKey ?? '',
            iv: session.iv,
            sha256,
          },
        };
      } finally {
        await this.finish(session);
      }
    } catch (error) {
      this.fail(file, error);
      return null;
    }
  }

  private async sendBatch(batch: readonly ReadyFile[]): Promise<void> {
    const { events } = this;
    this.announceSending();
    for (const { source } of batch) events.statusChanged(source.id, 'uploading');
    let body: unknown;
    try {
      body = await this.options.transport.sendBatch(
        this.options.linkToken,
        batch.map((ready) => ready.encrypted),
        {
          signal: this.options.signal,
          // The spec's rule for a batch: every file shows the request's loaded / total.
          onProgress: (loaded, total) => {
            for (const { source } of batch) events.progressed(source.id, total > 0 ? loaded / total : 0);
          },
          onWaiting: (waiting) => {
            for (const { source } of batch) events.waiting(source.id, waiting);
          },
        },
      );
    } catch (error) {
      for (const { source } of batch) this.fail(source, error);
      return;
    }
    this.settle(
      batch.map((ready) => ready.source),
      body,
      (id) => batch.find((ready) => ready.source.id === id)!.encrypted.sha256,
    );
  }

  /** Matches an answer to the files it is about and reports each file's outcome. */
  private settle(files: readonly PipelineFile[], body: unknown, sha256Of: (id: string) => string): void {
    if (this.aborted) return;
    const result: UploadResult = isUploadResult(body) ? body : { successful_files: [], failed_files: [] };
    if (!isUploadResult(body)) this.events.emptyResponse();
    const sent: SentFile[] = files.map((f) => ({ id: f.id, name: f.name, relativePath: f.relativePath }));
    for (const [id, outcome] of matchResults(sent, result)) this.events.finished(id, toFinal(outcome, sha256Of(id)));
  }

  // ------------------------------------------------------------------ large files: tus

  private async sendLarge(file: PipelineFile): Promise<void> {
    if (this.aborted) return;
    const { events, options } = this;
    const identity: FileIdentity = {
      linkToken: options.linkToken,
      relativePath: file.relativePath,
      name: file.name,
      size: file.size,
      lastModified: file.lastModified,
    };
    try {
      events.statusChanged(file.id, 'hashing');
      await this.checkSignature(file);
      events.statusChanged(file.id, 'encrypting');
      const session = await this.open(file);
      try {
        events.statusChanged(file.id, 'pending');
        await cancelLeftoverUpload(identity);
        this.announceSending();
        events.statusChanged(file.id, 'uploading');
        const sent = await options.transport.sendLarge({
          linkToken: options.linkToken,
          range: session,
          metadata: {
            filename: file.name,
            relativePath: file.relativePath,
            encryptedKey: session.wrappedKey ?? '',
            iv: session.iv,
            plainSize: file.size,
          },
          signal: options.signal,
          onProgress: (bytes, total) => events.progressed(file.id, total > 0 ? bytes / total : 1),
          onWaiting: (waiting) => events.waiting(file.id, waiting),
          onCreated: (url) => rememberUpload(identity, url),
        });
        let sha256: string;
        try {
          sha256 = await session.sha256();
        } catch (error) {
          throw hashingFailed(error);
        }
        const body = await options.transport.complete(options.linkToken, [{ upload_id: sent.uploadId, file_hash: sha256 }], {
          signal: options.signal,
          onWaiting: (waiting) => events.waiting(file.id, waiting),
        });
        forgetUpload(identity);
        this.settle([file], body, () => sha256);
      } finally {
        await this.finish(session);
      }
    } catch (error) {
      if (isTransportError(error, 'aborted')) return;
      this.fail(file, unwrapSourceError(error));
    }
  }
}

/** A failure to produce ciphertext while sending is an encryption failure of that file. */
function unwrapSourceError(error: unknown): unknown {
  if (error instanceof SourceReadError) return encryptionFailed(error.cause ?? error);
  return error;
}
