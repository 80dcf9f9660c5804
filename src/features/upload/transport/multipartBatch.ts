// Small files go to the server several at a time in the spec's one-request multipart upload
// (POST /api/upload/{link_token}; docs/api.md "One request: multipart"): per file a `files` part
// with the ciphertext and, in the same order, its wrapped key, IV, relative path, SHA-256 and
// plaintext size. The server stores all of a request or, if the request breaks off, none of it,
// so a failed batch is simply sent again: the batch lane decides when (engine/batchLane.ts,
// retryBudget.ts). Each function here is one attempt.

import { KEY_EPOCH_FIELD } from '../../../../contract/team-folders.ts';
import { concatBytes, releaseBuffer, utf8 } from '../../../../crypto/index.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../contract/upload.ts';
import { jsonBody, sendXhr, uploadUrl } from './xhrRequest.ts';

export interface EncryptedFile {
  /** The file name as the user has it (the multipart filename). */
  name: string;
  relativePath: string;
  plainSize: number;
  /** The encrypted file as the pool gave it: bytes, or a slice of an upload spool file (read from disk when sent). */
  ciphertext: ReadonlyArray<Uint8Array | Blob>;
  /** Bytes of `ciphertext`. */
  cipherSize: number;
  encryptedKey: string;
  iv: string;
  sha256: string;
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

/** Field names and file names as browsers write them in multipart/form-data (HTML's encoding). */
function escapeName(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Field values with line breaks normalised to CRLF, as FormData does. */
function normaliseValue(value: string): string {
  return value.replace(/\r\n|\r|\n/g, '\r\n');
}

function randomBoundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `----SealdropBatch${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The request body, written here rather than with FormData: FormData needs a Blob per file, and
 * each Blob costs Chromium time to register; for a folder of thousands of small files that alone
 * kept the page's main thread busy for seconds (docs/upload.md, "Measurements behind the
 * choices"). The body is one buffer rather than one Blob: a Blob's bytes are kept by the browser
 * process until the page's garbage collector gets to the (small) Blob object, long after the
 * request, while the buffer's bytes are copied into the request when it is sent and the buffer
 * is freed as soon as the request ends (sendMultipartBatch). The encoding is HTML's
 * multipart/form-data (RFC 7578): a team folder's `key_epoch` first, then per file its `files`
 * part, its wrapped key, IV, relative path, SHA-256 and plaintext size.
 */
export function multipartBody(files: readonly EncryptedFile[], keyEpoch: number | null = null): MultipartBody {
  const boundary = randomBoundary();
  const parts: Array<Uint8Array | Blob> = [];
  const field = (name: string, value: string) => {
    parts.push(utf8(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${normaliseValue(value)}\r\n`));
  };
  // First, so the server checks the epoch before it stores the first file's bytes.
  if (keyEpoch !== null) field(KEY_EPOCH_FIELD, String(keyEpoch));
  for (const file of files) {
    parts.push(
      utf8(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${escapeName(file.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(...file.ciphertext);
    parts.push(utf8('\r\n'));
    field('encrypted_keys', file.encryptedKey);
    field('encryption_ivs', file.iv);
    field('relative_paths', file.relativePath);
    field('file_hashes', file.sha256);
    field('file_sizes', String(file.plainSize));
  }
  parts.push(utf8(`--${boundary}--\r\n`));
  const contentType = `multipart/form-data; boundary=${boundary}`;
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
