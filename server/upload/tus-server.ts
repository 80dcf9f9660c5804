// The resumable upload transport: tus 1.0 (core, creation, creation-with-upload, termination)
// through @tus/server and its file store, mounted per link at /api/upload/{link_token}/tus.
//
// - Bytes go to the blob "uploads/<id>" (on disk or in the bucket, see tus-storage.ts), so a
//   completed upload is that blob with no copy. Everything else about an upload is a database row
//   (upload_sessions), so a restarted server, or another process, continues where the bytes end.
// - The route checks the link and the gates before tus sees the request, and hands the folder
//   over through `tusContexts`; the hooks here check that an upload id belongs to that folder and
//   that the declared sizes are consistent and within the limit, before a byte is stored.
// - A finished upload is not a file yet: the client completes it with its SHA-256 (computed
//   while encrypting), see complete-uploads.ts.
import type { IncomingMessage } from 'node:http';
import { ERRORS, EVENTS, Server, type Upload } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { UploadLinkFolder, Repositories } from '../db/repositories/index.ts';
import { errorBody, HttpError } from '../errors.ts';
import type { SpaceGuard } from '../storage/free-space.ts';
import { FolderQuotaExceededError, isNoSpaceError, NoSpaceWriteError, StorageFullError } from '../storage/storage-errors.ts';
import type { CiphertextSize } from './format-size.ts';
import { fileTooLargeDetail } from './errors.ts';
import { checkFileFields } from './file-fields.ts';
import { parseKeyEpoch, requireCurrentKeyEpoch } from './key-epoch.ts';
import { KEY_EPOCH_FIELD } from '../../contract/team-folders.ts';
import { lockerFor, type SharedUploadLocker } from './tus-locker.ts';
import { isTusUploadId, type TusStorage } from './tus-storage.ts';

const TUS_PATH = /\/api\/upload\/([^/]+)\/tus(?:\/([^/]*))?\/?$/;

/** What the route learned about a request before handing it to tus. */
export interface TusRequestContext {
  folder: UploadLinkFolder;
  linkToken: string;
  /** The verified uploader address, when the link has e-mail verification. */
  uploaderEmail: string | null;
}

export interface TusServerDeps {
  storage: TusStorage;
  repos: Repositories;
  sizes: CiphertextSize;
  maxFileBytes: number;
  now: () => number;
  log: FastifyBaseLogger;
  /** The disk's free-space reserve (none with S3). */
  space: SpaceGuard;
  /** One request at a time per upload, across processes (tus-locker.ts). */
  locker: SharedUploadLocker;
}

/** Hook errors in the shape @tus/server answers with (a plain-text body, like its own errors). */
function tusError(status_code: number, message: string): { status_code: number; body: string } {
  return { status_code, body: `${message}\n` };
}

export const tusContexts = new WeakMap<IncomingMessage, TusRequestContext>();

interface NodeBackedRequest {
  runtime?: { node?: { req?: IncomingMessage } };
}

/**
 * A typed refusal met while tus handles the request, in the API's error shape {detail, code}: tus
 * serves every body as text/plain, so clients parse it by content (docs/api.md).
 */
function jsonError(error: HttpError): { status_code: number; body: string } {
  return { status_code: error.statusCode, body: JSON.stringify(errorBody(error.code, error.detail)) };
}

function contextOf(req: unknown): TusRequestContext {
  const raw = (req as NodeBackedRequest).runtime?.node?.req;
  const context = raw && tusContexts.get(raw);
  // The route always sets it; a request without one did not come through the route.
  if (!context) throw ERRORS.FILE_NOT_FOUND;
  return context;
}

function withoutNul<T extends string | undefined>(value: T): T {
  // eslint-disable-next-line no-control-regex -- NUL is the one character removed here
  return (value === undefined ? value : value.replace(/\u0000/g, '')) as T;
}

function metadataValue(upload: Upload, key: string): string | undefined {
  const value = upload.metadata?.[key];
  return value === null || value === undefined ? undefined : value;
}

/**
 * After a PATCH that tus accepted (204): its bytes count as the upload's activity. Content-Length
 * tells whether it brought any (tus-js-client always sends it); a chunked PATCH without one counts
 * through POST_RECEIVE while it streams.
 */
export async function recordPatchActivity(repos: Repositories, uploadId: string, contentLength: string | undefined, now: number): Promise<void> {
  if (Number(contentLength) > 0) await repos.uploadSessions.touch(uploadId, now);
}

export function createTusServer(deps: TusServerDeps): Server {
  const { repos, sizes, maxFileBytes, now, log } = deps;
  const datastore = deps.storage.datastore;
  const maxCipherBytes = sizes.encryptedLength(maxFileBytes);

  const server = new Server({
    // Required by @tus/server but unused: URLs are built and parsed per link below.
    path: '/api/upload',
    datastore,
    // One request at a time per upload across processes (tus-locker.ts); readers lock nothing.
    locker: lockerFor(deps.locker),
    maxSize: maxCipherBytes,
    // Same-origin only: no CORS headers at all.
    allowedOrigins: () => false,
    // Activity reports while a long PATCH streams, for the abandoned-upload sweep.
    postReceiveInterval: 60_000,
    generateUrl: (req, { id }) => `/api/upload/${contextOf(req).linkToken}/tus/${id}`,
    getFileIdFromRequest: (req) => {
      const match = TUS_PATH.exec(new URL(req.url).pathname);
      const id = match?.[2];
      return id !== undefined && isTusUploadId(id) ? id : undefined;
    },
    async onIncomingRequest(req, id) {
      const context = contextOf(req);
      if (req.method === 'POST') return;
      const session = await repos.uploadSessions.find(id);
      // Another link's upload is answered exactly like a missing one.
      if (!session || session.folderId !== context.folder.id) throw ERRORS.FILE_NOT_FOUND;
      // Activity is recorded only for bytes received (recordPatchActivity, POST_RECEIVE): an empty
      // PATCH must not keep an unfinished upload's bytes past the abandon time.
    },
    async onUploadCreate(req, upload) {
      const context = contextOf(req);
      if (upload.size === undefined) throw tusError(400, 'Upload-Length is required');
      const plainSizeText = metadataValue(upload, 'plainSize');
      if (plainSizeText === undefined || !/^\d{1,16}$/.test(plainSizeText)) {
        throw tusError(400, 'Upload-Metadata plainSize (the plaintext size in bytes) is required');
      }
      const plainSize = Number(plainSizeText);
      if (plainSize > maxFileBytes) throw tusError(413, fileTooLargeDetail(maxFileBytes));
      if (sizes.encryptedLength(plainSize) !== upload.size) {
        throw tusError(400, 'Upload-Length is not the encrypted size of plainSize');
      }
      // Refused at creation when the declared length would cut into the disk's reserve.
      await deps.space.ensureRoomFor(upload.size);
      // Kept as sent, to be echoed at completion, less NUL bytes: PostgreSQL text cannot hold them,
      // and the checks below drop them from the stored name and path anyway (as for multipart).
      const filename = withoutNul(metadataValue(upload, 'filename') ?? '');
      const relativePath = withoutNul(metadataValue(upload, 'relativePath'));
      const encryptedKey = metadataValue(upload, 'encryptedKey');
      const encryptionIv = metadataValue(upload, 'iv');
      const checked = checkFileFields({ rawName: filename, rawPath: relativePath, encryptedKey, encryptionIv });
      if (!checked.ok) throw tusError(400, checked.reason);
      // Sealed to the folder's current key epoch (none for a personal folder), or refused so the
      // page fetches the new key (key-epoch.ts).
      const keyEpoch = parseKeyEpoch(metadataValue(upload, KEY_EPOCH_FIELD));
      if (keyEpoch === undefined) throw tusError(400, 'Upload-Metadata key_epoch must be a positive whole number');
      await requireCurrentKeyEpoch(repos, context.folder.id, keyEpoch);
      // The declared size and one file are taken from the folder's limits with the session's row,
      // in one transaction: parallel creations on any process never pass a limit together.
      const recorded = await repos.uploadSessions.createWithinLimits({
        id: upload.id,
        folderId: context.folder.id,
        uploaderEmail: context.uploaderEmail,
        filename,
        relativePath: relativePath ?? '.',
        encryptedKey: checked.encryptedKey,
        encryptionIv: checked.encryptionIv,
        plainSize,
        uploadLength: upload.size,
        metadata: upload.metadata ?? {},
        createdAt: now(),
        keyEpoch,
      });
      if (!recorded) {
        log.info({ folderId: context.folder.id, plainSize }, 'tus upload refused: the folder\'s limit leaves no room for it');
        throw new FolderQuotaExceededError();
      }
      return {};
    },
    async onUploadFinish(_req, upload) {
      await repos.uploadSessions.markFinished(upload.id, now());
      return {};
    },
    // tus's own errors are plain {status_code, body} objects; anything thrown as an Error is ours
    // or the file system's, logged here and answered without its message.
    onResponseError(_req, error) {
      if (isNoSpaceError(error)) {
        const cause = error instanceof NoSpaceWriteError ? error.cause : error;
        log.error({ err: cause }, 'tus upload refused: no space left for it');
        return jsonError(new StorageFullError());
      }
      if (error instanceof HttpError) return jsonError(error);
      if (!(error instanceof Error)) return undefined;
      log.error({ err: error }, 'tus request failed');
      return tusError(500, 'Internal Server Error');
    },
  });

  server.on(EVENTS.POST_RECEIVE, (_source: unknown, upload: Upload) => {
    repos.uploadSessions.touch(upload.id, now()).catch((error: unknown) => {
      log.warn({ err: error }, 'could not record upload activity');
    });
  });
  return server;
}
