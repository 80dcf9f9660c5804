// The small-file lane: files are checked, then encrypted whole and hashed in the pool a group at a
// time (one worker message per group of up to SMALL_GROUP_FILES files), packed into batches
// (batchPacker.ts) and sent with the spec's one-request multipart upload. At most
// MAX_BATCHES_IN_FLIGHT batches are on the wire; encryption waits for a free slot instead of
// piling ciphertext up in memory. A batch whose request fails is sent again within the retry
// budget (the server stores all of a request or none of it, and answers a repeat of the batch's
// Idempotency-Key with what it recorded the first time). A file that fails its content check
// or its encryption fails alone; the rest of its group goes on.

import { randomBoundary } from '../../../../contract/upload-multipart.ts';
import type { EncryptedFile } from '../transport/multipartBatch.ts';
import { RetryBudget, withRetries } from '../transport/retryBudget.ts';
import { BatchPacker } from './batchPacker.ts';
import { forEachConcurrent, Semaphore } from './concurrency.ts';
import type { BatchTransport, UploadFile } from './enginePorts.ts';
import { encryptionFailed, hashingFailed } from './processingFailure.ts';
import type { RunContext } from './runContext.ts';
import { MAX_BATCHES_IN_FLIGHT, SMALL_GROUP_BYTES, SMALL_GROUP_FILES, SMALL_GROUPS_PER_WORKER } from './uploadLimits.ts';

interface ReadyFile {
  source: UploadFile;
  encrypted: EncryptedFile;
  /** The ciphertext is no longer needed: its spool file may go (SmallFileEncryption.release). */
  release: () => void;
}

/** The files in queue order, cut into the groups the pool encrypts one message at a time. */
export function smallFileGroups(files: readonly UploadFile[]): UploadFile[][] {
  const packer = new BatchPacker<UploadFile>((file) => file.size, { maxFiles: SMALL_GROUP_FILES, maxBytes: SMALL_GROUP_BYTES });
  const groups = files.flatMap((file) => packer.add(file));
  const rest = packer.rest();
  return rest ? [...groups, rest] : groups;
}

export class BatchLane {
  constructor(
    private readonly run: RunContext,
    private readonly transport: BatchTransport,
  ) {}

  async send(files: readonly UploadFile[]): Promise<void> {
    if (files.length === 0) return;
    // One boundary for the run: the pool writes each file's part with it into the upload spool,
    // so that parts of files from several groups can share a batch's body.
    const boundary = randomBoundary();
    const slots = new Semaphore(MAX_BATCHES_IN_FLIGHT);
    const sending: Promise<void>[] = [];
    const packer = new BatchPacker<ReadyFile>((ready) => ready.encrypted.cipherSize);
    const dispatch = async (batch: readonly ReadyFile[]) => {
      await slots.acquire();
      sending.push(this.sendBatch(batch).finally(() => slots.release()));
    };
    await forEachConcurrent(smallFileGroups(files), this.run.settings.pool.size * SMALL_GROUPS_PER_WORKER, async (group) => {
      if (this.run.aborted) return;
      for (const ready of await this.prepare(group, boundary)) {
        for (const full of packer.add(ready)) await dispatch(full);
      }
    });
    const rest = packer.rest();
    if (rest) await dispatch(rest);
    await Promise.all(sending);
  }

  /** The group's files that passed their check and were encrypted whole and hashed; each failure is reported. */
  private async prepare(group: readonly UploadFile[], boundary: string): Promise<ReadyFile[]> {
    const { events } = this.run;
    for (const file of group) events.statusChanged(file.id, 'hashing');
    const checked = await Promise.all(
      group.map(async (file) => {
        try {
          await this.run.checkContent(file);
          return file;
        } catch (error) {
          this.run.fail(file, error);
          return null;
        }
      }),
    );
    const toEncrypt = checked.filter((file): file is UploadFile => file !== null);
    // The run may have stopped while the content checks read the files: nothing more is encrypted.
    if (toEncrypt.length === 0 || this.run.aborted) return [];
    for (const file of toEncrypt) events.statusChanged(file.id, 'encrypting');
    let results;
    try {
      results = await this.run.encryptSmall(toEncrypt, boundary);
    } catch (error) {
      const failure = encryptionFailed(error);
      for (const file of toEncrypt) this.run.fail(file, failure);
      return [];
    }
    const ready: ReadyFile[] = [];
    toEncrypt.forEach((file, index) => {
      const result = results[index] ?? { ok: false, stage: 'encrypt', error: new Error('the pool returned no result for this file') };
      if (!result.ok) {
        this.run.fail(file, result.stage === 'hash' ? hashingFailed(result.error) : encryptionFailed(result.error));
        return;
      }
      events.statusChanged(file.id, 'pending');
      ready.push({
        source: file,
        release: result.release,
        encrypted: {
          name: file.name,
          relativePath: file.relativePath,
          plainSize: file.size,
          ciphertext: result.ciphertext ? [result.ciphertext] : [],
          ...(result.written ? { written: result.written } : {}),
          cipherSize: result.cipherSize,
          encryptedKey: result.wrappedKey,
          iv: result.iv,
          sha256: result.sha256,
        },
      });
    });
    return ready;
  }

  /** One batch, sent within its retry budget; its ciphertexts are released once it is answered or given up. */
  private async sendBatch(batch: readonly ReadyFile[]): Promise<void> {
    try {
      await this.sendBatchOnce(batch);
    } finally {
      for (const ready of batch) ready.release();
    }
  }

  private async sendBatchOnce(batch: readonly ReadyFile[]): Promise<void> {
    // A stopped run sends nothing more.
    if (this.run.aborted) return;
    const { events, settings } = this.run;
    this.run.announceSending();
    for (const { source } of batch) events.statusChanged(source.id, 'uploading');
    const encrypted = batch.map((ready) => ready.encrypted);
    const onWaiting = (waiting: boolean) => {
      for (const { source } of batch) events.waiting(source.id, waiting);
    };
    // One key for every attempt of this batch: a retry after a lost answer stores nothing twice.
    const idempotencyKey = crypto.randomUUID();
    let body: unknown;
    try {
      body = await withRetries(
        () =>
          this.transport.sendBatch(settings.linkToken, encrypted, {
            signal: settings.signal,
            idempotencyKey,
            keyEpoch: settings.keyEpoch,
            // The spec's rule for a batch: every file shows the request's loaded / total.
            onProgress: (loaded, total) => {
              for (const { source } of batch) events.progressed(source.id, total > 0 ? loaded / total : 0);
            },
          }),
        new RetryBudget(),
        settings.signal,
        onWaiting,
      );
    } catch (error) {
      for (const { source } of batch) this.run.fail(source, error);
      return;
    }
    // The ciphertext is not detached here once the batch is done (releaseBuffer): these buffers
    // came from the worker by postMessage, and a buffer Blink made stays allocated after script
    // detaches it, hidden from the collector's count, until its wrapper is collected; left alone
    // they are collected with the batch (docs/operations.md, "Kept: the page leaves the files'
    // ciphertext to the collector").
    const sha256Of = new Map(batch.map((ready) => [ready.source.id, ready.encrypted.sha256]));
    this.run.settle(
      batch.map((ready) => ready.source),
      body,
      (id) => sha256Of.get(id)!,
    );
  }
}
