// Small files (up to 8 MiB, as on the upload page) are encrypted whole, each with its own key and
// IV, and sent several at a time in the one-request multipart upload (docs/api.md, "One request:
// multipart"): batches of at most 100 files / 16 MiB, two on the wire at once. Every batch carries
// an Idempotency-Key made once for it, so a batch whose answer was lost and is sent again is
// answered with the recorded result instead of storing the files twice. Stored files are written
// to the upload state as they are confirmed, so a later run skips them; a batch cut off by an
// interruption is sent again by the next run as new files (at most a few MiB).
import { KEY_EPOCH_FIELD } from '../../contract/team-folders.ts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { IDEMPOTENCY_KEY_HEADER, uploadResultResponse, type UploadResult } from '../../contract/upload.ts';
import { encryptBuffer, wrapFileKey } from '../../server/crypto/index.ts';
import type { ApiSession } from '../shared/api-session.ts';
import { withRetries } from '../shared/retry.ts';
import { failure, type FileOutcome } from './outcome.ts';
import { SourceChangedError, SourceUnreadableError } from './segment-ciphertext.ts';
import type { SourceFile } from './source-files.ts';
import type { UploadState } from './upload-state.ts';

/** Files up to this size go in batches; larger ones over tus (the upload page's limit, docs/upload.md). */
export const SMALL_FILE_MAX_BYTES = 8 * 1024 * 1024;
export const MAX_BATCH_FILES = 100;
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;
const BATCHES_IN_FLIGHT = 2;

export interface SmallFilesContext {
  session: ApiSession;
  linkToken: string;
  publicKeySpki: string;
  /** A team folder's epoch the keys are sealed to (the batch's key_epoch field); null: a personal folder. */
  keyEpoch: number | null;
  state: UploadState;
  signal: AbortSignal;
  /** Told once per file, as soon as its fate is known. */
  onOutcome(file: SourceFile, outcome: FileOutcome, cipherBytes: number): void;
  onNote(note: string): void;
}

interface SealedFile {
  file: SourceFile;
  /** The multipart filename: the name as browsers write it (HTML's encoding of ", CR, LF). */
  partName: string;
  ciphertext: Buffer;
  encryptedKey: string;
  iv: string;
  sha256: string;
}

const escapeName = (name: string): string => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const resultKey = (path: string, rawName: string): string => `${path}\u0000${rawName}`;

async function seal(file: SourceFile, publicKeySpki: string): Promise<SealedFile> {
  let plain: Buffer;
  try {
    plain = await readFile(file.absolutePath);
  } catch (error) {
    throw new SourceUnreadableError(`cannot read the file (${error instanceof Error && 'code' in error ? String(error.code) : 'error'})`);
  }
  if (plain.length !== file.size) throw new SourceChangedError('length', `the file changed size since it was listed (${file.size} -> ${plain.length} bytes)`);
  const key = randomBytes(32);
  const iv = randomBytes(12);
  try {
    return {
      file,
      partName: escapeName(file.name),
      ciphertext: encryptBuffer(key, iv, plain),
      encryptedKey: wrapFileKey(publicKeySpki, key),
      iv: iv.toString('base64'),
      sha256: createHash('sha256').update(plain).digest('hex'),
    };
  } finally {
    key.fill(0);
  }
}

/** HTML's multipart/form-data: per file its `files` part, then its key, IV, directory, hash and size. */
function multipartBody(files: readonly SealedFile[], keyEpoch: number | null): { body: Buffer; contentType: string } {
  const boundary = `----SealdropBatch${randomBytes(16).toString('hex')}`;
  const parts: Buffer[] = [];
  const text = (value: string) => parts.push(Buffer.from(value, 'utf8'));
  const field = (name: string, value: string) => text(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  // Before the first file, so a changed key is refused before any byte is stored.
  if (keyEpoch !== null) field(KEY_EPOCH_FIELD, String(keyEpoch));
  for (const sealed of files) {
    text(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${sealed.partName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    parts.push(sealed.ciphertext);
    text('\r\n');
    field('encrypted_keys', sealed.encryptedKey);
    field('encryption_ivs', sealed.iv);
    field('relative_paths', sealed.file.relativeDir);
    field('file_hashes', sealed.sha256);
    field('file_sizes', String(sealed.file.size));
  }
  text(`--${boundary}--\r\n`);
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function sendBatch(context: SmallFilesContext, batch: readonly SealedFile[]): Promise<UploadResult> {
  const { body, contentType } = multipartBody(batch, context.keyEpoch);
  const idempotencyKey = randomUUID();
  return withRetries(
    () =>
      context.session.json(uploadResultResponse, {
        method: 'POST',
        path: `/api/upload/${context.linkToken}`,
        headers: { 'content-type': contentType, [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
        body: body as Uint8Array<ArrayBuffer>,
        signal: context.signal,
        timeoutMs: 10 * 60_000,
      }),
    { signal: context.signal, onRetry: (_error, waitMs) => context.onNote(`no answer, trying the batch again in ${Math.round(waitMs / 1000)} s`) },
  );
}

async function settleBatch(context: SmallFilesContext, batch: readonly SealedFile[]): Promise<void> {
  let result: UploadResult;
  try {
    result = await sendBatch(context, batch);
  } catch (error) {
    if (context.signal.aborted) throw error;
    for (const sealed of batch) context.onOutcome(sealed.file, failure(error), sealed.ciphertext.length);
    return;
  }
  context.onNote('');
  const stored = new Map<string, number[]>();
  for (const item of result.successful_files) {
    const key = resultKey(item.path, item.original_raw_name_from_client);
    stored.set(key, [...(stored.get(key) ?? []), item.id]);
  }
  const refused = new Map(result.failed_files.map((item) => [resultKey(item.path, item.original_raw_name_from_client), item.error]));
  for (const sealed of batch) {
    const key = resultKey(sealed.file.relativeDir, sealed.partName);
    const fileId = stored.get(key)?.shift();
    if (fileId !== undefined) {
      await context.state.put(sealed.file.identity, { kind: 'stored', identity: sealed.file.identity, fileId, updatedAt: Date.now() });
      context.onOutcome(sealed.file, { status: 'stored', fileId, resumedFrom: null }, sealed.ciphertext.length);
    } else {
      context.onOutcome(sealed.file, { status: 'failed', code: 'REFUSED_BY_SERVER', detail: refused.get(key) ?? 'not in the server\'s answer' }, sealed.ciphertext.length);
    }
  }
}

/** Encrypts and sends the small files; each file's outcome goes to `onOutcome`. */
export async function sendSmallFiles(context: SmallFilesContext, files: readonly SourceFile[]): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let batch: SealedFile[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const sending = settleBatch(context, batch);
    batch = [];
    batchBytes = 0;
    const tracked = sending.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= BATCHES_IN_FLIGHT) await Promise.race(inFlight);
  };
  for (const file of files) {
    context.signal.throwIfAborted();
    let sealed: SealedFile;
    try {
      sealed = await seal(file, context.publicKeySpki);
    } catch (error) {
      context.onOutcome(file, failure(error), 0);
      continue;
    }
    if (batch.length >= MAX_BATCH_FILES || (batch.length > 0 && batchBytes + sealed.ciphertext.length > MAX_BATCH_BYTES)) await flush();
    batch.push(sealed);
    batchBytes += sealed.ciphertext.length;
  }
  await flush();
  await Promise.all(inFlight);
}
