// An upload server in memory for tests that run the engine against the real crypto pool: tus
// uploads keep the bytes they were sent and a later attempt continues from what is stored (what a
// HEAD would answer), bodies are read from the ciphertext range as tus-js-client reads them
// (a failure to produce one is the SourceReadError the real transport raises), `complete` answers
// with the files stored, and a test can act between chunks (`afterChunk`: kill a worker, say).

import type { UploadResult } from '../../../../api/types.ts';
import { SourceReadError } from '../../transport/ciphertextSource.ts';
import { TransportError } from '../../transport/transportError.ts';
import type { TusMetadata, TusSendOptions, TusSent } from '../../transport/tusUpload.ts';
import type { CompletedUpload, UploadTransport } from '../enginePorts.ts';

export interface StoredUpload {
  readonly metadata: TusMetadata;
  readonly length: number;
  /** Every body received, in order. */
  readonly chunks: Uint8Array[];
  /** Where each PATCH started (a resumed attempt starts at the stored length). */
  readonly patchOffsets: number[];
  completedWith: string | null;
}

export class MemoryUploadServer implements UploadTransport {
  readonly uploads = new Map<string, StoredUpload>();
  chunkBytes = 1024 * 1024;
  /** Runs after each chunk is stored, before the next body is read. */
  afterChunk: (upload: StoredUpload, offset: number) => void | Promise<void> = () => undefined;
  private nextId = 0;

  /** The stored ciphertext of an upload. */
  static bytesOf(upload: StoredUpload): Uint8Array {
    const whole = new Uint8Array(upload.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
    let at = 0;
    for (const chunk of upload.chunks) {
      whole.set(chunk, at);
      at += chunk.byteLength;
    }
    return whole;
  }

  async sendLarge(options: TusSendOptions): Promise<TusSent> {
    const total = options.range.encryptedLength;
    let url = options.resumeUrl;
    if (!url || !this.uploads.has(url)) {
      url = `https://sealdrop.test/api/upload/${options.linkToken}/tus/up-${++this.nextId}`;
      this.uploads.set(url, { metadata: options.metadata, length: total, chunks: [], patchOffsets: [], completedWith: null });
      options.onCreated?.(url);
    }
    const upload = this.uploads.get(url)!;
    let offset = upload.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    while (offset < total) {
      if (options.signal.aborted) throw TransportError.aborted();
      const end = Math.min(total, offset + this.chunkBytes);
      let body: Blob;
      try {
        body = await options.range.readBody(offset, end);
      } catch (error) {
        throw new SourceReadError(error);
      }
      upload.patchOffsets.push(offset);
      upload.chunks.push(new Uint8Array(await body.arrayBuffer()));
      offset = end;
      options.onProgress(offset, total);
      options.onChunkAccepted?.(offset);
      await this.afterChunk(upload, offset);
    }
    return { url, uploadId: url.slice(url.lastIndexOf('/') + 1) };
  }

  async complete(_linkToken: string, uploads: readonly CompletedUpload[]): Promise<UploadResult> {
    const result: UploadResult = { successful_files: [], failed_files: [] };
    for (const { upload_id, file_hash } of uploads) {
      const [url, upload] = [...this.uploads].find(([key]) => key.endsWith(`/${upload_id}`)) ?? [];
      if (!url || !upload) continue;
      upload.completedWith = file_hash;
      const { filename, relativePath, plainSize } = upload.metadata;
      result.successful_files.push({ id: this.nextId, filename, original_raw_name_from_client: filename, path: relativePath, size: plainSize });
    }
    return result;
  }

  async sendBatch(): Promise<unknown> {
    throw new Error('MemoryUploadServer takes large files only');
  }
}
