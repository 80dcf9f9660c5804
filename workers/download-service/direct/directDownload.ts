/**
 * One direct-to-disk download, run in a dedicated worker (direct.worker.ts): the keys arrive from
 * the crypto worker on the key port, each file's ciphertext is fetched (same route, checks and
 * range resumption as the service worker's), decrypted by the one decrypting stream
 * (../decryptedFile.ts) and written to the picked file or folder (diskWriter.ts, treeWriter.ts).
 * Reports go back on the status port: ready, started, progress, file-failed, then done or error.
 * Files of a tree are written one after the other; the keys are dropped when the download ends.
 */
import { DownloadError, isDownloadError } from '../downloadErrors.ts';
import { openDecryptedFile } from '../decryptedFile.ts';
import { receiveFileKeys } from '../keyInbox.ts';
import { isControlMessage, type PlanEntry } from '../protocol.ts';
import { StatusReporter } from '../statusReporter.ts';
import type { DirectPlan } from './directProtocol.ts';
import { BlockPool } from './blockPool.ts';
import { DEFAULT_WRITE_CHUNK, writeFailure, writeToDisk } from './diskWriter.ts';
import { partialPickedFile, type PartialFile } from './partialFile.ts';
import { createTreeFile } from './treeWriter.ts';

export interface DirectDownloadOptions {
  readonly keyTimeoutMs?: number;
  readonly fetch?: typeof fetch;
  readonly writeChunkBytes?: number;
}

/** Failures after which the next files of a tree would fail the same way (or were not wanted). */
function endsTheTree(error: unknown): boolean {
  return !isDownloadError(error) || error.code === 'ABORTED' || error.code === 'WRITE_FAILED' || error.code === 'KEY_UNAVAILABLE';
}

export async function serveDirectDownload(plan: DirectPlan, keyPort: MessagePort, statusPort: MessagePort, options: DirectDownloadOptions = {}): Promise<void> {
  const status = new StatusReporter(statusPort);
  const controller = new AbortController();
  let keys: Map<string, CryptoKey>;
  try {
    keys = await receiveFileKeys(keyPort, options.keyTimeoutMs);
  } catch {
    status.failed(new DownloadError('KEY_UNAVAILABLE', { file: plan.entries[0]?.name ?? '' }));
    return;
  }
  const missing = plan.entries.find((entry) => !keys.has(entry.keyId));
  if (missing) {
    keys.clear();
    status.failed(new DownloadError('KEY_UNAVAILABLE', { file: missing.name }));
    return;
  }
  statusPort.onmessage = (event: MessageEvent<unknown>) => {
    if (isControlMessage(event.data)) controller.abort(new DownloadError('ABORTED'));
  };
  status.post({ type: 'ready' });

  const total = plan.entries.reduce((sum, entry) => sum + entry.plainSize, 0);
  /** Bytes of finished files, plus the whole size of files left out, so progress ends at the total. */
  let processed = 0;
  /** Bytes on disk in complete files. */
  let saved = 0;
  status.post({ type: 'started', totalBytes: total });
  const blocks = new BlockPool(options.writeChunkBytes ?? DEFAULT_WRITE_CHUNK);
  /** Writes the file under its partial name and gives it its real name once complete (partialFile.ts). */
  const writeOne = async (entry: PlanEntry, file: PartialFile): Promise<void> => {
    let fileBytes = 0;
    const plaintext = await openDecryptedFile(entry, { keys, signal: controller.signal, ...(options.fetch ? { fetch: options.fetch } : {}) });
    await writeToDisk(plaintext, file.handle, {
      name: entry.name,
      signal: controller.signal,
      blocks,
      onBytes: (count) => {
        fileBytes += count;
        status.progress(processed + fileBytes);
      },
    });
    try {
      await file.commit();
    } catch (error) {
      throw writeFailure(entry.name, error, controller.signal);
    }
    saved += fileBytes;
  };

  try {
    if (plan.target.kind === 'file') {
      const file = await partialPickedFile(plan.target.file);
      try {
        await writeOne(plan.entries[0]!, file);
      } catch (error) {
        await file.discard();
        throw error;
      }
    } else {
      for (const entry of plan.entries) {
        if (controller.signal.aborted) throw controller.signal.reason;
        let treeFile;
        try {
          treeFile = await createTreeFile(plan.target.directory, entry.name);
        } catch (error) {
          throw writeFailure(entry.name, error, controller.signal);
        }
        try {
          await writeOne(entry, treeFile);
        } catch (error) {
          await treeFile.discard();
          if (!plan.skipFailedFiles || endsTheTree(error)) throw error;
          status.fileFailed(entry.name, error);
        }
        processed += entry.plainSize;
      }
    }
    status.done(saved);
  } catch (error) {
    controller.abort(error);
    status.failed(isDownloadError(error) ? error : writeFailure(plan.entries[0]?.name ?? '', error, controller.signal));
  } finally {
    keys.clear();
  }
}
