// The spec's one-request upload: POST /api/upload/{link_token}, multipart/form-data. Parts are
// read as a stream: text fields are collected, each `files` part is streamed straight into the
// blob store (never buffered whole) under a fresh key, refused past the size limit. Only when the
// whole request has arrived are the per-file arrays matched up by position; then every valid file
// becomes a record in one transaction. On any failure of the request as a whole, every blob it
// stored is deleted again (and the sweep removes what a crash left behind). Every file and every
// piece of bytes is admitted before it is stored (upload-admission.ts): the folder's limits and the
// disk's reserve refuse the first one that would pass them, while the body streams.
import { randomUUID } from 'node:crypto';
import type {} from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { KeyEpochChangedError, type FileRecord, type UploadLinkFolder, type NewFileRecord, type Repositories } from '../db/repositories/index.ts';
import { FolderKeyChangedError } from '../folders/team-errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { BlobStoreError, type BlobStore } from '../storage/blob-store.ts';
import type { SpaceGuard } from '../storage/free-space.ts';
import { FolderQuotaExceededError, isNoSpaceError, StorageFullError } from '../storage/storage-errors.ts';
import { UploadAdmission } from './upload-admission.ts';
import { MAX_FILES_PER_REQUEST } from '../../contract/upload.ts';
import { KEY_EPOCH_FIELD } from '../../contract/team-folders.ts';
import { parseKeyEpoch, requireCurrentKeyEpoch } from './key-epoch.ts';
import type { CiphertextSize } from './format-size.ts';
import { FileTooLargeError, UploadError } from './errors.ts';
import { checkFileFields, isFileHash } from './file-fields.ts';
import { decodeMultipartFilename, storedFilename } from './file-names.ts';
import type { UploadAccess } from './upload-access.ts';
import { echoedPath, type FailedFile, type SuccessfulFile, type UploadResult } from './upload-result.ts';
import { normalizeEmail } from './verification-code.ts';

const ARRAY_FIELDS = ['encrypted_keys', 'encryption_ivs', 'relative_paths', 'file_hashes', 'file_sizes'] as const;
const GATE_FIELDS = ['link_password', 'uploader_email', 'verification_code'] as const;
type ArrayField = (typeof ARRAY_FIELDS)[number];
type GateField = (typeof GATE_FIELDS)[number];

export interface MultipartDeps {
  blobs: BlobStore;
  repos: Repositories;
  access: UploadAccess;
  sizes: CiphertextSize;
  maxFileBytes: number;
  now: () => number;
  log: FastifyBaseLogger;
  /** The disk's free-space reserve: a file may use only the room left above it. */
  space: SpaceGuard;
  /** How long a request's claim on its folder's limits outlives its last grant if the request dies. */
  claimTtlMs: number;
  /**
   * The request's Idempotency-Key (checked), if it sent one: a key already recorded for this
   * folder answers the recorded result and stores nothing; otherwise the key is recorded with the
   * files, in their transaction.
   */
  idempotencyKey?: string;
  /** Told of the files a request stored and the uploader's verified address (upload notifications). */
  onStored?: (stored: { fileIds: number[]; uploaderEmail: string | null }) => Promise<void>;
}

interface StoredPart {
  uuid: string;
  blobKey: string;
  rawName: string;
  cipherSize: number;
}

function isArrayField(name: string): name is ArrayField {
  return (ARRAY_FIELDS as readonly string[]).includes(name);
}

function isGateField(name: string): name is GateField {
  return (GATE_FIELDS as readonly string[]).includes(name);
}

const emailAddress = z.email().max(320);

/**
 * The uploader_email field as the gate sees it: trimmed and lower-cased, and only if it is an
 * address at all. The JSON routes refuse anything else (422) before a code can be mailed or
 * verified, so no code exists for it; presenting it would only send it into the code lookup
 * (a NUL byte there failed the query on PostgreSQL). Not presented, the gate answers as for a
 * request without an address.
 */
function presentedEmail(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const email = normalizeEmail(value);
  return emailAddress.safeParse(email).success ? email : undefined;
}

/**
 * A failure of the server's own side while the body is being read: the gate check or the database.
 * Wrapped so that it is not taken for a fault of the body (a database error carries neither an
 * HTTP status nor a syscall, and was answered 400 "Malformed multipart request.").
 */
class ServerSideFailure {
  constructor(readonly error: unknown) {}
}

async function serverSide<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new ServerSideFailure(error);
  }
}

/**
 * Errors of the request body itself (busboy's parse errors, a body cut short) become 400
 * "Malformed"; errors that carry an HTTP status pass through; failures of our own storage (system
 * errors name a syscall, e.g. ENOSPC) and of the server's own side (ServerSideFailure) stay as
 * they are, so an unexpected one is a 500.
 */
function asRequestError(error: unknown): unknown {
  if (error instanceof ServerSideFailure) return error.error;
  if (isNoSpaceError(error)) return error;
  if (!(error instanceof Error)) return error;
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number') return error;
  if (error instanceof BlobStoreError || 'syscall' in error) return error;
  return new UploadError('MALFORMED_MULTIPART');
}

export async function receiveMultipartUpload(
  request: FastifyRequest,
  folder: UploadLinkFolder,
  grantToken: string | undefined,
  deps: MultipartDeps,
): Promise<UploadResult> {
  if (!request.isMultipart()) throw new UploadError('NOT_MULTIPART');
  const { blobs, access, sizes, maxFileBytes, idempotencyKey } = deps;
  if (idempotencyKey !== undefined) {
    // A repeat of a batch that was recorded (its answer lost on the way back): answered as then,
    // before a byte of the body is read or stored. Node discards the unread body.
    const earlier = await deps.repos.uploadBatches.findResult(folder.id, idempotencyKey);
    if (earlier !== undefined) return earlier as UploadResult;
  }
  const maxCipherBytes = sizes.encryptedLength(maxFileBytes);
  const arrays: Record<ArrayField, string[]> = {
    encrypted_keys: [],
    encryption_ivs: [],
    relative_paths: [],
    file_hashes: [],
    file_sizes: [],
  };
  const gateFields: Partial<Record<GateField, string>> = {};
  const stored: StoredPart[] = [];
  const persisting: Promise<void>[] = [];
  const admission = new UploadAdmission({ usage: deps.repos.folderUsage, folderId: folder.id, space: deps.space, now: deps.now, claimTtlMs: deps.claimTtlMs });
  // The first file that failed to store (refused by a limit, the disk): no later file is stored.
  const refused: { error?: unknown; failed: boolean } = { failed: false };
  const refuse = (error: unknown) => {
    if (refused.failed) return;
    refused.failed = true;
    refused.error = error;
  };
  let authorized = false;
  let uploaderEmail: string | null = null;
  // The batch's `key_epoch` field (docs/team-folders.md): checked as soon as it is read, when the
  // gates are (before the first byte is stored), and again when the records are written.
  let keyEpochText: string | undefined;
  let keyEpochChecked = false;
  const checkKeyEpoch = async (): Promise<number | null> => {
    const keyEpoch = parseKeyEpoch(keyEpochText);
    if (keyEpoch === undefined) throw new UploadError('MALFORMED_MULTIPART');
    if (!keyEpochChecked) await serverSide(requireCurrentKeyEpoch(deps.repos, folder.id, keyEpoch));
    keyEpochChecked = true;
    return keyEpoch;
  };

  const authorize = async () => {
    if (authorized) return;
    ({ email: uploaderEmail } = await serverSide(
      access.authorize(folder, grantToken, request.ip, {
        linkPassword: gateFields.link_password,
        uploaderEmail: presentedEmail(gateFields.uploader_email),
        verificationCode: gateFields.verification_code,
      }),
    ));
    authorized = true;
  };

  try {
    const parts = request.parts({
      limits: {
        fieldNameSize: 100,
        fieldSize: 64 * 1024,
        fields: MAX_FILES_PER_REQUEST * ARRAY_FIELDS.length + GATE_FIELDS.length + 1,
        files: MAX_FILES_PER_REQUEST,
        parts: MAX_FILES_PER_REQUEST * (ARRAY_FIELDS.length + 1) + GATE_FIELDS.length + 1,
        // One byte over the limit, so the blob store (which stops at the limit) notices first.
        fileSize: maxCipherBytes + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value !== 'string') continue;
        if (isArrayField(part.fieldname)) arrays[part.fieldname].push(part.value);
        else if (isGateField(part.fieldname)) gateFields[part.fieldname] = part.value;
        else if (part.fieldname === KEY_EPOCH_FIELD) keyEpochText = part.value;
        continue;
      }
      if (part.fieldname !== 'files') {
        part.file.resume();
        continue;
      }
      // The gates are checked before the first byte of the first file is stored.
      await authorize();
      // A batch sealed to an old key is refused like a full folder: nothing stored, the body read
      // to its end. Thrown at once instead, the answer waited behind the unread body, and a
      // browser still sending it saw no answer at all (it took the reset for a network failure
      // and sent the batch again for minutes).
      if (!refused.failed && keyEpochText !== undefined && !keyEpochChecked) await checkKeyEpoch().catch(refuse);
      const file = part.file;
      // After a refusal nothing more is stored, but the body is still read to its end (dropped):
      // see UploadAdmission.admitted.
      if (refused.failed) {
        file.resume();
        continue;
      }
      try {
        await serverSide(admission.admitFile());
      } catch (error) {
        refuse(error);
        file.resume();
        continue;
      }
      const uuid = randomUUID();
      const entry: StoredPart = { uuid, blobKey: `files/${uuid}`, rawName: part.filename, cipherSize: 0 };
      stored.push(entry);
      // Not awaited: the next part is parsed as soon as this one's bytes are written, while this
      // blob is still being made durable (an fsync of the file and of its directory, which for a
      // batch of small files would otherwise run one after another).
      const persisted = blobs.put(entry.blobKey, admission.admitted(file), { maxBytes: maxCipherBytes }).then(
        (info) => {
          entry.cipherSize = info.size;
          if (file.truncated) throw new FileTooLargeError(maxFileBytes);
        },
        (error: unknown) => {
          if (error instanceof BlobStoreError && error.code === 'BLOB_TOO_LARGE') throw new FileTooLargeError(maxFileBytes);
          throw error;
        },
      );
      // Handled below (allSettled); this keeps an early failure from being reported as unhandled.
      persisted.catch(refuse);
      persisting.push(persisted);
    }
    await Promise.allSettled(persisting);
    if (refused.failed) throw refused.error;
    await authorize();
    if (stored.length === 0) throw new UploadError('NO_FILES');
    const n = stored.length;
    const optionalMatches = (values: string[]) => values.length === 0 || values.length === n;
    if (
      arrays.encrypted_keys.length !== n ||
      arrays.encryption_ivs.length !== n ||
      arrays.file_hashes.length !== n ||
      !optionalMatches(arrays.relative_paths) ||
      !optionalMatches(arrays.file_sizes)
    ) {
      throw new UploadError('ARRAY_LENGTH_MISMATCH');
    }
    const keyEpoch = await checkKeyEpoch();
    const result = await serverSide(recordFiles(stored, arrays, folder, deps, admission, keyEpoch));
    if (result === REPEATED) {
      await admission.abandon();
      return await repeatedAnswer(folder, idempotencyKey!, deps, stored, persisting);
    }
    await admission.finish();
    // Never lets a notification problem undo stored files (the catch below deletes blobs).
    await deps.onStored?.({ fileIds: result.successful_files.map((file) => file.id), uploaderEmail }).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'could not record the upload for notifications');
    });
    return result;
  } catch (error) {
    // Only once no put is still writing can its blob be deleted for good.
    await Promise.allSettled(persisting);
    await Promise.all(stored.map((part) => blobs.delete(part.blobKey).catch(() => undefined)));
    await admission.abandon().catch((releaseError: unknown) => {
      // Left to the sweep, which gives back expired claims.
      deps.log.warn({ err: releaseError, folderId: folder.id }, 'could not give back a failed upload\'s claim on its folder\'s limits');
    });
    const answered = asRequestError(error);
    if (answered instanceof FolderQuotaExceededError) {
      deps.log.info({ folderId: folder.id }, 'upload refused: the folder\'s limit leaves no room for it');
    }
    if (isNoSpaceError(answered)) {
      if (!(answered instanceof StorageFullError)) await deps.space.noSpaceMet();
      // The cause (the reserve reached, or the file system's own ENOSPC) once, then one typed answer.
      deps.log.error({ err: answered, folderId: folder.id }, 'upload refused: no space left for it');
      throw new StorageFullError();
    }
    throw answered;
  }
}

/** recordFiles' answer when another request with the same idempotency key committed first. */
const REPEATED = Symbol('repeated');

/**
 * A concurrent repeat lost the race to record its key: the other request's files are the batch's.
 * This one's blobs are deleted and it answers what the other recorded.
 */
async function repeatedAnswer(
  folder: UploadLinkFolder,
  key: string,
  deps: MultipartDeps,
  stored: readonly StoredPart[],
  persisting: readonly Promise<void>[],
): Promise<UploadResult> {
  await Promise.allSettled(persisting);
  await Promise.all(stored.map((part) => deps.blobs.delete(part.blobKey).catch(() => undefined)));
  const earlier = await deps.repos.uploadBatches.findResult(folder.id, key);
  if (earlier === undefined) throw new Error('an idempotency key conflicted but no answer is recorded for it');
  deps.log.info({ folderId: folder.id }, 'multipart upload repeated a recorded batch; stored nothing');
  return earlier as UploadResult;
}

/**
 * Matches the stored parts with the per-file values by position, records the valid files in one
 * transaction and deletes the blobs of the others. Nothing after the commit can fail, so the
 * caller's clean-up never deletes the blob of a recorded file.
 */
async function recordFiles(
  parts: StoredPart[],
  values: Record<ArrayField, string[]>,
  target: UploadLinkFolder,
  { blobs, repos, sizes, now, log, idempotencyKey }: MultipartDeps,
  admission: UploadAdmission,
  keyEpoch: number | null,
): Promise<UploadResult | typeof REPEATED> {
  const successful: Array<{ part: StoredPart; record: NewFileRecord; rawPath: string | undefined }> = [];
  const failed: FailedFile[] = [];
  const rejected: StoredPart[] = [];
  const uploadTime = now();
  parts.forEach((part, index) => {
    const rawName = part.rawName;
    const rawPath = values.relative_paths[index];
    const fields = checkFileFields({
      rawName: decodeMultipartFilename(rawName),
      rawPath,
      encryptedKey: values.encrypted_keys[index],
      encryptionIv: values.encryption_ivs[index],
    });
    const fail = (error: string, name: string, size: number) => {
      failed.push({ filename: name, original_raw_name_from_client: rawName, path: echoedPath(rawPath), size, error });
      rejected.push(part);
    };
    const declared = values.file_sizes[index];
    const plainSize =
      declared === undefined
        ? sizes.plaintextLength(part.cipherSize)
        : /^\d{1,16}$/.test(declared) && sizes.encryptedLength(Number(declared)) === part.cipherSize
          ? Number(declared)
          : null;
    if (!fields.ok) return fail(fields.reason, fields.name, plainSize ?? 0);
    const fileHash = values.file_hashes[index]?.toLowerCase();
    if (!isFileHash(fileHash)) return fail('Missing or invalid file hash', fields.name, plainSize ?? 0);
    if (plainSize === null) return fail('Size does not match the encrypted data', fields.name, 0);
    successful.push({
      part,
      rawPath,
      record: {
        folderId: target.id,
        originalFilename: fields.name,
        storedFilename: storedFilename(part.uuid, fields.path, fields.name),
        relativePath: fields.path,
        fileSize: plainSize,
        fileHash,
        encryptedKey: fields.encryptedKey,
        encryptionIv: fields.encryptionIv,
        blobKey: part.blobKey,
        uploadTime,
        keyEpoch,
      },
    });
  });
  const answer = (records: readonly FileRecord[]): UploadResult => ({
    successful_files: successful.map((item, index) => ({
      filename: item.record.originalFilename,
      original_raw_name_from_client: item.part.rawName,
      path: echoedPath(item.rawPath),
      size: item.record.fileSize,
      id: records[index]!.id,
    })),
    failed_files: failed,
  });
  let records: FileRecord[];
  try {
    records = await repos.files.createMany(
      successful.map((item) => item.record),
      idempotencyKey === undefined ? undefined : { folderId: target.id, key: idempotencyKey, createdAt: uploadTime, result: answer },
      admission.claimToSettle(),
      { folderId: target.id, epoch: keyEpoch },
    );
  } catch (error) {
    if (idempotencyKey !== undefined && isUniqueViolation(error)) return REPEATED;
    if (error instanceof KeyEpochChangedError) throw new FolderKeyChangedError();
    throw error;
  }
  await Promise.all(rejected.map((part) => blobs.delete(part.blobKey).catch(() => undefined)));
  const result = answer(records);
  const successfulFiles: SuccessfulFile[] = result.successful_files;
  log.info({ folderId: target.id, stored: successfulFiles.length, failed: failed.length }, 'multipart upload recorded');
  return { successful_files: successfulFiles, failed_files: failed };
}
