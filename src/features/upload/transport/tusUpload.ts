// Large files go through tus 1.0 (docs/api.md "Resumable: tus 1.0") with tus-js-client, whose
// browser build sends each chunk with XMLHttpRequest. One PATCH per chunk. sendWithTus is one
// attempt: it ends at the first failure. The resumable lane (engine/resumableLane.ts) decides with
// the retry budget whether and when to go on, and calls again with the upload's URL; tus then asks
// the server for its offset (HEAD) and continues from there: after a dropped connection, a sleeping
// laptop or a server restart, only the unacknowledged part of one chunk is sent again.

import { DetailedError, Upload, type HttpRequest } from 'tus-js-client';
import { KEY_EPOCH_FIELD } from '../../../../contract/team-folders.ts';
import { CSRF_HEADER, readCsrfToken } from '../../../api/csrf.ts';
import { ReadAheadCiphertextSource, SourceReadError, type CiphertextRange } from './ciphertextSource.ts';
import { TransportError } from './transportError.ts';
import { uploadUrl } from './xhrRequest.ts';

/**
 * Bytes per PATCH (chosen by measurement, docs/upload.md "Chunk size"): each PATCH waits for its
 * bytes to be on disk before the next starts, so fewer, larger PATCHes lose less time to that
 * wait. A connection lost mid-PATCH costs only the bytes in flight: the server keeps what arrived.
 */
export const TUS_CHUNK_BYTES = 64 * 1024 * 1024;

export interface TusMetadata {
  filename: string;
  relativePath: string;
  encryptedKey: string;
  iv: string;
  plainSize: number;
  /** The team folder's key epoch `encryptedKey` is sealed to; null: a personal folder (not sent). */
  keyEpoch: number | null;
}

export interface TusSendOptions {
  linkToken: string;
  range: CiphertextRange;
  metadata: TusMetadata;
  chunkBytes?: number;
  signal: AbortSignal;
  /** Continue this upload (from the offset the server reports) instead of creating one. */
  resumeUrl?: string;
  /** Ciphertext bytes sent so far (may go back after a resume) and the total. */
  onProgress: (sent: number, total: number) => void;
  /** The server accepted a chunk and now holds `offset` bytes (the retry budget starts over). */
  onChunkAccepted?: (offset: number) => void;
  /** The upload exists on the server (its URL): to resume it, or cancel it after a reload. */
  onCreated?: (url: string) => void;
}

export interface TusSent {
  url: string;
  uploadId: string;
}

function asFailure(error: unknown): TransportError | SourceReadError {
  if (error instanceof DetailedError) {
    if (error.causingError instanceof SourceReadError) return error.causingError;
    const response = error.originalResponse;
    if (response) return TransportError.http(response.getStatus(), '', response.getBody() ?? '');
    return TransportError.network();
  }
  if (error instanceof SourceReadError) return error;
  // tus-js-client's own checks (e.g. a source shorter than announced) are programming errors here.
  return new SourceReadError(error);
}

/** One tus session: resolves when the whole upload is on the server, rejects at the first failure. */
export function sendWithTus(options: TusSendOptions): Promise<TusSent> {
  const { signal } = options;
  return new Promise<TusSent>((resolve, reject) => {
    if (signal.aborted) {
      reject(TransportError.aborted());
      return;
    }
    const metadata = options.metadata;
    const upload: Upload = new Upload(
      // tus-js-client wants an input to hand to the file reader; ours ignores it.
      new Blob(),
      {
        endpoint: uploadUrl(options.linkToken, '/tus'),
        uploadUrl: options.resumeUrl ?? null,
        uploadSize: options.range.encryptedLength,
        chunkSize: options.chunkBytes ?? TUS_CHUNK_BYTES,
        metadata: {
          filename: metadata.filename,
          relativePath: metadata.relativePath,
          encryptedKey: metadata.encryptedKey,
          iv: metadata.iv,
          plainSize: String(metadata.plainSize),
          ...(metadata.keyEpoch === null ? {} : { [KEY_EPOCH_FIELD]: String(metadata.keyEpoch) }),
        },
        // Retries are the lane's (retryBudget.ts), so that offline waits and server restarts are handled alike.
        retryDelays: null,
        // The lane keeps the upload's URL itself (and the journal, resume/uploadJournal.ts, across page loads).
        storeFingerprintForResuming: false,
        fileReader: { openFile: async () => new ReadAheadCiphertextSource(options.range) },
        onBeforeRequest: (request: HttpRequest) => {
          const token = readCsrfToken();
          if (token) request.setHeader(CSRF_HEADER, token);
        },
        onUploadUrlAvailable: () => {
          if (upload.url) options.onCreated?.(upload.url);
        },
        onProgress: (sent, total) => options.onProgress(sent, total),
        onChunkComplete: (_chunkBytes, accepted) => options.onChunkAccepted?.(accepted),
        onSuccess: () => {
          signal.removeEventListener('abort', onAbort);
          const url = upload.url ?? '';
          resolve({ url, uploadId: url.slice(url.lastIndexOf('/') + 1) });
        },
        onError: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(asFailure(error));
        },
      },
    );
    const onAbort = () => {
      void upload.abort();
      reject(TransportError.aborted());
    };
    signal.addEventListener('abort', onAbort);
    upload.start();
  });
}
