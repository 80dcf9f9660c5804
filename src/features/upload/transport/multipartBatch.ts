// Small files go to the server several at a time in the spec's one-request multipart upload
// (POST /api/upload/{link_token}; docs/api.md "One request: multipart"): per file a `files` part
// with the ciphertext and, in the same order, its wrapped key, IV, relative path, SHA-256 and
// plaintext size. The server stores all of a request or, if the request breaks off, none of it,
// so a failed batch is simply sent again: the batch lane decides when (engine/batchLane.ts,
// retryBudget.ts). Each function here is one attempt.

import { KEY_EPOCH_FIELD } from '../../../../contract/team-folders.ts';
import { concatBytes, releaseBuffer, utf8 } from '../../../../crypto/index.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../contract/upload.ts';
import { closingPart, fieldPart, fileHead, fileTail, multipartContentType, randomBoundary, type MultipartFileFields, type WrittenFilePart } from '../../../../contract/upload-multipart.ts';
import { jsonBody, sendXhr, uploadUrl } from './xhrRequest.ts';

export interface EncryptedFile extends MultipartFileFields {
  /** The encrypted file as the records came from the pool (empty when `written` holds it). */
  ciphertext: readonly Uint8Array[];
  /** Bytes of the ciphertext. */
  cipherSize: number;
  /** The file's whole part as the worker wrote it into the upload spool, instead of `ciphertext`. */
  written?: WrittenFilePart;
}

export interface SendHooks {
  signal: AbortSignal;
  /**
   * The batch's Idempotency-Key (docs/api.md, "Retrying a batch"): made once per batch and sent
   * with every attempt, so that a retry of a batch the server recorded (its answer lost) is
   * answered with that record instead of storing the files again.
   */
  idempotencyKey?: string;
  /** Body bytes sent so far of the whole request. */
  onProgress: (loaded: number, total: number) => void;
  /** The team folder's key epoch the batch's keys are sealed to (the `key_epoch` field); null or absent: none. */
  keyEpoch?: number | null;
}

export interface MultipartBody {
  /**
   * The whole request body: one buffer owned by the caller (nothing else holds a view of it), or,
   * when a file's ciphertext is a slice of a spool file, a Blob of the parts, which the browser
   * reads from disk as it sends (workers/small-file-spool.ts).
   */
  body: Uint8Array<ArrayBuffer> | Blob;
  contentType: string;
}

/** Thrown for files whose parts were written with different boundaries: they cannot share a body. */
export class MixedBoundaryError extends Error {
  override readonly name = 'MixedBoundaryError';
  readonly code = 'MIXED_BOUNDARY';
  constructor() {
    super('the files of one batch were written with different multipart boundaries');
  }
}

/**
 * The request body, written here rather than with FormData: FormData needs a Blob per file, and
 * each Blob costs Chromium time to register; for a folder of thousands of small files that alone
 * kept the page's main thread busy for seconds (docs/upload.md, "Measurements behind the
 * choices"). The encoding is contract/upload-multipart.ts.
 *
 * Files whose ciphertext is in memory make one buffer, copied into the request when it is sent and
 * freed as soon as the request ends (sendMultipartBatch): a Blob of bytes would be kept by the
 * browser process until the page's garbage collector got to the small Blob object. Files whose
 * part the worker wrote into the upload spool (`written`) are slices of spool files, and
 * consecutive parts of one spool file are one slice: the body is then a Blob of a few slices,
 * which the browser reads from disk as it sends (workers/small-file-spool.ts).
 */
export function multipartBody(files: readonly EncryptedFile[], keyEpoch: number | null = null): MultipartBody {
  const boundaries = new Set(files.flatMap((file) => (file.written ? [file.written.boundary] : [])));
  if (boundaries.size > 1) throw new MixedBoundaryError();
  const boundary = boundaries.values().next().value ?? randomBoundary();
  const parts: Array<Uint8Array | Blob> = [];
  let slice: { source: Blob; start: number; end: number } | null = null;
  const endSlice = () => {
    if (slice) parts.push(slice.source.slice(slice.start, slice.end));
    slice = null;
  };
  // First, so the server checks the epoch before it stores the first file's bytes.
  if (keyEpoch !== null) parts.push(utf8(fieldPart(boundary, KEY_EPOCH_FIELD, String(keyEpoch))));
  for (const file of files) {
    const written = file.written;
    if (written) {
      if (slice && slice.source === written.source && slice.end === written.start) slice.end = written.end;
      else {
        endSlice();
        slice = { source: written.source, start: written.start, end: written.end };
      }
      continue;
    }
    endSlice();
    parts.push(utf8(fileHead(boundary, file)), ...file.ciphertext, utf8(fileTail(boundary, file)));
  }
  endSlice();
  parts.push(utf8(closingPart(boundary)));
  const contentType = multipartContentType(boundary);
  const inMemory = parts.filter((part): part is Uint8Array => !(part instanceof Blob));
  if (inMemory.length === parts.length) return { body: concatBytes(inMemory), contentType };
  return { body: new Blob(parts as BlobPart[]), contentType };
}

/** Sends one batch (one attempt); resolves with the response body (an Upload result, unchecked). */
export async function sendMultipartBatch(linkToken: string, files: readonly EncryptedFile[], hooks: SendHooks): Promise<unknown> {
  const { body, contentType } = multipartBody(files, hooks.keyEpoch ?? null);
  let response;
  try {
    response = await sendXhr({
      method: 'POST',
      url: uploadUrl(linkToken),
      body,
      headers: { 'Content-Type': contentType, ...(hooks.idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: hooks.idempotencyKey } : {}) },
      signal: hooks.signal,
      onUploadProgress: hooks.onProgress,
    });
  } finally {
    // XMLHttpRequest copied a buffer body when it was sent; another attempt writes a new one.
    if (!(body instanceof Blob)) releaseBuffer(body.buffer);
  }
  return jsonBody(response);
}

/** POST .../complete for finished tus uploads (one attempt); resolves with the response body (an Upload result, unchecked). */
export async function completeUploads(
  linkToken: string,
  uploads: ReadonlyArray<{ upload_id: string; file_hash: string }>,
  hooks: { signal: AbortSignal },
): Promise<unknown> {
  const response = await sendXhr({
    method: 'POST',
    url: uploadUrl(linkToken, '/complete'),
    body: JSON.stringify({ uploads }),
    headers: { 'Content-Type': 'application/json' },
    signal: hooks.signal,
  });
  return jsonBody(response);
}
