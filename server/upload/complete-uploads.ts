// Completing tus uploads: POST /api/upload/{link_token}/complete {uploads: [{upload_id, file_hash}]}.
// The SHA-256 of the plaintext is known only once the browser has read the whole file, so it
// arrives here rather than at creation. For each upload all bytes must be stored (on S3: the
// multipart upload completed into its object); the bytes are made durable (flushed to disk; S3
// acknowledged them stored), and then, in one transaction for the whole batch, each session ends and its
// file record appears. Answered in the spec's Upload result shape, in request order. Completing
// twice is harmless: an upload already turned into a record answers with that record.
import type { NewFileRecord, Repositories, UploadLinkFolder, UploadSession } from '../db/repositories/index.ts';
import { checkFileFields, isFileHash } from './file-fields.ts';
import { storedFilename } from './file-names.ts';
import { isTusUploadId, tusBlobKey, type TusStorage } from './tus-storage.ts';
import { echoedPath, type FailedFile, type SuccessfulFile, type UploadResult } from './upload-result.ts';

export interface CompletionRequest {
  upload_id: string;
  file_hash: string;
}

export interface CompletionDeps {
  repos: Repositories;
  /** Where the tus server stored the uploads' bytes. */
  tusStorage: TusStorage;
  now: () => number;
}

type Outcome =
  | { kind: 'done'; item: SuccessfulFile }
  | { kind: 'failed'; item: FailedFile }
  | { kind: 'ready'; session: UploadSession; record: NewFileRecord };

export async function completeUploads(
  folder: UploadLinkFolder,
  requests: readonly CompletionRequest[],
  deps: CompletionDeps,
): Promise<UploadResult> {
  const { repos, tusStorage, now } = deps;
  const validIds = requests.map((r) => r.upload_id).filter(isTusUploadId);
  const sessions = new Map((await repos.uploadSessions.findMany(validIds)).map((s) => [s.id, s]));
  const uploadTime = now();

  const outcomes: Outcome[] = [];
  for (const { upload_id: uploadId, file_hash: rawHash } of requests) {
    const session = sessions.get(uploadId);
    if (!session || session.folderId !== folder.id) {
      outcomes.push(await alreadyCompleted(repos, folder, uploadId));
      continue;
    }
    const fail = (error: string, filename: string): Outcome => ({
      kind: 'failed',
      item: {
        filename,
        original_raw_name_from_client: session.filename,
        path: echoedPath(session.relativePath),
        size: session.plainSize,
        error,
        upload_id: uploadId,
      },
    });
    const fields = checkFileFields({
      rawName: session.filename,
      rawPath: session.relativePath,
      encryptedKey: session.encryptedKey,
      encryptionIv: session.encryptionIv,
    });
    if (!fields.ok) {
      outcomes.push(fail(fields.reason, fields.name));
      continue;
    }
    const fileHash = rawHash.toLowerCase();
    if (!isFileHash(fileHash)) {
      outcomes.push(fail('Missing or invalid file hash', fields.name));
      continue;
    }
    const received = await tusStorage.storedLength(uploadId, session.uploadLength);
    if (received !== session.uploadLength) {
      outcomes.push(fail(`Upload incomplete: ${received} of ${session.uploadLength} bytes received`, fields.name));
      continue;
    }
    outcomes.push({
      kind: 'ready',
      session,
      record: {
        folderId: folder.id,
        originalFilename: fields.name,
        storedFilename: storedFilename(uploadId, fields.path, fields.name),
        relativePath: fields.path,
        fileSize: session.plainSize,
        fileHash,
        encryptedKey: fields.encryptedKey,
        encryptionIv: fields.encryptionIv,
        blobKey: tusBlobKey(uploadId),
        uploadTime,
        keyEpoch: session.keyEpoch ?? null,
      },
    });
  }

  // Durable before the records that point at them are committed.
  const ready = outcomes.filter((o): o is Extract<Outcome, { kind: 'ready' }> => o.kind === 'ready');
  await tusStorage.makeDurable(ready.map((o) => o.session.id));
  const records = await repos.uploadSessions.completeMany(ready.map((o) => ({ id: o.session.id, record: o.record })));
  const committed = new Map(ready.map((o, i) => [o.session.id, records[i]]));
  await tusStorage.afterCompleted(ready.filter((o) => committed.get(o.session.id)).map((o) => o.session.id));

  const result: UploadResult = { successful_files: [], failed_files: [] };
  for (const outcome of outcomes) {
    if (outcome.kind === 'done') result.successful_files.push(outcome.item);
    else if (outcome.kind === 'failed') result.failed_files.push(outcome.item);
    else {
      const { session } = outcome;
      const record = committed.get(session.id);
      const common = {
        original_raw_name_from_client: session.filename,
        path: echoedPath(session.relativePath),
        size: session.plainSize,
        upload_id: session.id,
      };
      if (record) result.successful_files.push({ filename: record.originalFilename, id: record.id, ...common });
      else result.failed_files.push({ filename: outcome.record.originalFilename, error: 'Upload not found', ...common });
    }
  }
  return result;
}

/** An id with no session here: a completed upload answers with its record, anything else is unknown. */
async function alreadyCompleted(repos: Repositories, folder: UploadLinkFolder, uploadId: string): Promise<Outcome> {
  const done = isTusUploadId(uploadId) ? await repos.files.findByBlobKey(tusBlobKey(uploadId)) : undefined;
  if (done && done.folderId === folder.id) {
    return {
      kind: 'done',
      item: {
        filename: done.originalFilename,
        original_raw_name_from_client: done.originalFilename,
        path: done.relativePath,
        size: done.fileSize,
        id: done.id,
        upload_id: uploadId,
      },
    };
  }
  return {
    kind: 'failed',
    item: { filename: '', original_raw_name_from_client: '', path: '.', size: 0, error: 'Upload not found', upload_id: uploadId },
  };
}
