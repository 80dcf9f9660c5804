// The small-file lane: a few files at a time are checked, encrypted whole and hashed in the pool,
// packed into batches (batchPacker.ts) and sent with the spec's one-request multipart upload. At
// most MAX_BATCHES_IN_FLIGHT batches are on the wire; encryption waits for a free slot instead of
// piling ciphertext up in memory. A batch whose request fails is sent again within the retry
// budget (the server stores all of a request or none of it).

import type { EncryptedFile } from '../transport/multipartBatch.ts';
import { RetryBudget, withRetries } from '../transport/retryBudget.ts';
import { BatchPacker } from './batchPacker.ts';
import { forEachConcurrent, Semaphore } from './concurrency.ts';
import type { BatchTransport, UploadFile } from './enginePorts.ts';
import { encryptionFailed, hashingFailed } from './processingFailure.ts';
import type { RunContext } from './runContext.ts';
import { MAX_BATCHES_IN_FLIGHT, SMALL_FILES_PER_WORKER } from './uploadLimits.ts';

interface ReadyFile {
  source: UploadFile;
  encrypted: EncryptedFile;
}

export class BatchLane {
  constructor(
    private readonly run: RunContext,
    private readonly transport: BatchTransport,
  ) {}

  async send(files: readonly UploadFile[]): Promise<void> {
    if (files.length === 0) return;
    const slots = new Semaphore(MAX_BATCHES_IN_FLIGHT);
    const sending: Promise<void>[] = [];
    const packer = new BatchPacker<ReadyFile>((ready) => ready.encrypted.cipherSize);
    const dispatch = async (batch: readonly ReadyFile[]) => {
      await slots.acquire();
      sending.push(this.sendBatch(batch).finally(() => slots.release()));
    };
    await forEachConcurrent(files, this.run.settings.pool.size * SMALL_FILES_PER_WORKER, async (file) => {
      if (this.run.aborted) return;
      const ready = await this.prepare(file);
      if (!ready) return;
      for (const full of packer.add(ready)) await dispatch(full);
    });
    const rest = packer.rest();
    if (rest) await dispatch(rest);
    await Promise.all(sending);
  }

  /** The file encrypted whole and hashed, or null after reporting its failure. */
  private async prepare(file: UploadFile): Promise<ReadyFile | null> {
    const { events } = this.run;
    try {
      events.statusChanged(file.id, 'hashing');
      await this.run.checkContent(file);
      const session = await this.run.open(file);
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
        await this.run.close(session);
      }
    } catch (error) {
      this.run.fail(file, error);
      return null;
    }
  }

  private async sendBatch(batch: readonly ReadyFile[]): Promise<void> {
    // A stopped run sends nothing more.
    if (this.run.aborted) return;
    const { events, settings } = this.run;
    this.run.announceSending();
    for (const { source } of batch) events.statusChanged(source.id, 'uploading');
    const encrypted = batch.map((ready) => ready.encrypted);
    const onWaiting = (waiting: boolean) => {
      for (const { source } of batch) events.waiting(source.id, waiting);
    };
    let body: unknown;
    try {
      body = await withRetries(
        () =>
          this.transport.sendBatch(settings.linkToken, encrypted, {
            signal: settings.signal,
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
    const sha256Of = new Map(batch.map((ready) => [ready.source.id, ready.encrypted.sha256]));
    this.run.settle(
      batch.map((ready) => ready.source),
      body,
      (id) => sha256Of.get(id)!,
    );
  }
}
