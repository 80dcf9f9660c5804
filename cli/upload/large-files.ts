// Large files go over tus 1.0 (docs/api.md, "Resumable: tus 1.0") with tus-js-client's node build,
// one PATCH per 64 MiB chunk, the ciphertext produced on demand by SegmentCiphertext. What a later
// run needs to continue is in the upload state before the first byte leaves: the file key, IV and
// wrapped key, then the upload URL, then each segment's digest. A run that finds an entry for the
// same file (path, size, mtime, inode) and the same owner key re-reads the segments it encrypted
// before, continues the same upload from the server's offset with the same key and IV, and sends
// nothing the server already holds. A file that changed starts over with a new key and IV (its
// old upload is cancelled). Completion sends the plaintext's SHA-256.
import { KEY_EPOCH_FIELD } from '../../contract/team-folders.ts';
import { createHash, randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { DetailedError, Upload, type HttpRequest } from 'tus-js-client';
import { uploadResultResponse } from '../../contract/upload.ts';
import { wrapFileKey } from '../../server/crypto/index.ts';
import type { ApiSession } from '../shared/api-session.ts';
import { ApiRequestError, NetworkError } from '../shared/errors.ts';
import { RETRY_DELAYS_MS, withRetries } from '../shared/retry.ts';
import { failure, type FileOutcome } from './outcome.ts';
import { SegmentCiphertext, SourceChangedError, SourceUnreadableError } from './segment-ciphertext.ts';
import type { SourceFile } from './source-files.ts';
import type { ResumableEntry, UploadState } from './upload-state.ts';

/** Bytes per PATCH, as the upload page (docs/upload.md "Chunk size"). */
export const TUS_CHUNK_BYTES = 64 * 1024 * 1024;

export interface LargeFileContext {
  session: ApiSession;
  linkToken: string;
  publicKeySpki: string;
  /** A team folder's epoch the keys are sealed to (tus metadata key_epoch); null: a personal folder. */
  keyEpoch: number | null;
  state: UploadState;
  signal: AbortSignal;
  /** Ciphertext bytes of this file sent so far (may go back when a PATCH is sent again). */
  onSent(file: SourceFile, bytes: number): void;
  /** A passing state of this file ('' clears it): checking earlier segments, waiting to retry. */
  onNote(file: SourceFile, note: string): void;
  chunkBytes?: number;
}

const fingerprint = (spki: string): string => createHash('sha256').update(spki).digest('hex');
const tusPath = (linkToken: string): string => `/api/upload/${linkToken}/tus`;

function freshEntry(file: SourceFile, publicKeySpki: string, now: number): ResumableEntry {
  const key = randomBytes(32);
  return {
    kind: 'resumable',
    identity: file.identity,
    relativeDir: file.relativeDir,
    name: file.name,
    fileKey: key.toString('base64'),
    iv: randomBytes(12).toString('base64'),
    encryptedKey: wrapFileKey(publicKeySpki, key),
    publicKeySha256: fingerprint(publicKeySpki),
    uploadUrl: null,
    segmentDigests: [],
    updatedAt: now,
  };
}

/** Cancels an upload the server may still hold (best effort: the sweep removes it otherwise). */
async function cancelUpload(context: LargeFileContext, url: string | null): Promise<void> {
  if (url === null) return;
  const path = new URL(url, context.session.origin).pathname;
  await context.session.send({ method: 'DELETE', path, headers: { 'tus-resumable': '1.0.0' }, timeoutMs: 10_000 }).catch(() => undefined);
}

function asError(error: unknown): unknown {
  if (error instanceof DetailedError) {
    if (error.causingError instanceof SourceChangedError) return error.causingError;
    const response = error.originalResponse;
    if (response) {
      const body = response.getBody() ?? '';
      let code = `HTTP_${response.getStatus()}`;
      let detail = body.trim() || `HTTP ${response.getStatus()}`;
      try {
        const parsed = JSON.parse(body) as { code?: unknown; detail?: unknown };
        if (typeof parsed.code === 'string' && typeof parsed.detail === 'string') ({ code, detail } = parsed as { code: string; detail: string });
      } catch {
        // tus errors are plain text.
      }
      return new ApiRequestError(response.getStatus(), code, detail);
    }
    return new NetworkError(`no answer from the server (${error.causingError?.message ?? error.message})`, { cause: error });
  }
  return error;
}

/** One tus session over the whole file; resolves with the upload's URL when every byte is stored. */
function sendWithTus(context: LargeFileContext, file: SourceFile, entry: ResumableEntry, source: SegmentCiphertext): Promise<string> {
  const chunkBytes = context.chunkBytes ?? TUS_CHUNK_BYTES;
  const { session } = context;
  return new Promise<string>((resolve, reject) => {
    const upload: Upload = new Upload(Buffer.alloc(0), {
      endpoint: session.origin + tusPath(context.linkToken),
      uploadUrl: entry.uploadUrl,
      uploadSize: source.cipherSize,
      chunkSize: chunkBytes,
      metadata: {
        filename: file.name,
        relativePath: file.relativeDir,
        encryptedKey: entry.encryptedKey,
        iv: entry.iv,
        plainSize: String(file.size),
        ...(context.keyEpoch === null ? {} : { [KEY_EPOCH_FIELD]: String(context.keyEpoch) }),
      },
      retryDelays: RETRY_DELAYS_MS,
      storeFingerprintForResuming: false,
      fileReader: {
        openFile: async () => ({
          size: source.cipherSize,
          slice: async (start: number, end: number) => {
            const bytes = await source.slice(start, end);
            source.prefetch(end, end + chunkBytes);
            // tus-js-client reads a chunk's length from `size`, as its own node BufferSource sets it.
            const value = Object.assign(bytes, { size: bytes.length });
            return { value, done: end >= source.cipherSize };
          },
          close: () => {},
        }),
      },
      onBeforeRequest: (request: HttpRequest) => {
        for (const [name, value] of Object.entries(session.sessionHeaders(request.getMethod()))) request.setHeader(name, value);
      },
      onUploadUrlAvailable: () => {
        entry.uploadUrl = upload.url;
        entry.updatedAt = Date.now();
        context.state.put(file.identity, entry).catch(reject);
      },
      onProgress: (sent) => {
        context.onNote(file, '');
        context.onSent(file, sent);
      },
      onShouldRetry: (error, attempt) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        const retry = error.causingError instanceof SourceChangedError ? false : status === 0 || status >= 500 || status === 409 || status === 423;
        if (retry) context.onNote(file, `no answer, trying again in ${Math.round((RETRY_DELAYS_MS[attempt] ?? 0) / 1000)} s`);
        return retry;
      },
      onSuccess: () => {
        context.signal.removeEventListener('abort', onAbort);
        resolve(upload.url ?? '');
      },
      onError: (error) => {
        context.signal.removeEventListener('abort', onAbort);
        reject(asError(error));
      },
    });
    const onAbort = () => {
      void upload.abort();
      reject(context.signal.reason);
    };
    if (context.signal.aborted) return onAbort();
    context.signal.addEventListener('abort', onAbort, { once: true });
    upload.start();
  });
}

async function complete(context: LargeFileContext, uploadUrl: string, sha256: string): Promise<number> {
  const uploadId = uploadUrl.slice(uploadUrl.lastIndexOf('/') + 1);
  const result = await withRetries(
    () =>
      context.session.json(uploadResultResponse, {
        method: 'POST',
        path: `/api/upload/${context.linkToken}/complete`,
        json: { uploads: [{ upload_id: uploadId, file_hash: sha256 }] },
        signal: context.signal,
      }),
    { signal: context.signal },
  );
  const stored = result.successful_files[0];
  if (stored) return stored.id;
  throw new ApiRequestError(200, 'REFUSED_BY_SERVER', result.failed_files[0]?.error ?? 'the server did not store the file');
}

/** Sends one large file (continuing an earlier run's upload when there is one) and completes it. */
export async function sendLargeFile(context: LargeFileContext, file: SourceFile): Promise<FileOutcome> {
  const { state } = context;
  const earlier = state.get(file.identity);
  let entry = earlier?.kind === 'resumable' && earlier.publicKeySha256 === fingerprint(context.publicKeySpki) ? earlier : undefined;
  if (earlier?.kind === 'resumable' && entry === undefined) await cancelUpload(context, earlier.uploadUrl);
  let handle;
  try {
    handle = await open(file.absolutePath, 'r');
  } catch (error) {
    return failure(new SourceUnreadableError(`cannot open the file (${error instanceof Error && 'code' in error ? String(error.code) : 'error'})`));
  }
  try {
    for (let attempt = 0; ; attempt++) {
      if (!entry) {
        entry = freshEntry(file, context.publicKeySpki, Date.now());
        await state.put(file.identity, entry);
      }
      const current = entry;
      const source = new SegmentCiphertext(handle, file.size, Buffer.from(current.fileKey, 'base64'), Buffer.from(current.iv, 'base64'), {
        digests: current.segmentDigests,
        append: async (digest) => {
          current.segmentDigests.push(digest);
          current.updatedAt = Date.now();
          await state.put(file.identity, current);
        },
      });
      const resumedFrom = current.uploadUrl === null ? null : current.segmentDigests.length;
      try {
        if (current.segmentDigests.length > 0) {
          context.onNote(file, 'checking the part sent before');
          await source.verifyStoredSegments();
          context.onNote(file, '');
        }
        const url = await sendWithTus(context, file, current, source);
        const fileId = await complete(context, url, await source.sha256());
        await state.put(file.identity, { kind: 'stored', identity: file.identity, fileId, updatedAt: Date.now() });
        return { status: 'stored', fileId, resumedFrom };
      } catch (error) {
        if (!(error instanceof SourceChangedError)) throw error;
        // Never the same key for other bytes: what was sent under this key is dropped.
        await cancelUpload(context, current.uploadUrl);
        await state.put(file.identity, null);
        entry = undefined;
        // Changed since an earlier run: start over now. Changing while this run reads it: give up on it.
        if (attempt > 0 || resumedFrom === null || error.kind === 'length') throw error;
      }
    }
  } catch (error) {
    if (context.signal.aborted) throw error;
    return failure(error);
  } finally {
    await handle.close();
  }
}
