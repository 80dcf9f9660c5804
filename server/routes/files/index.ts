// The signed-in admin's files, mounted under /api/folders next to the folder routes: a folder's
// file list, the ciphertext download of one file, and deleting files. A file or folder of another
// admin answers 404 exactly like a missing one. The static segments (download, files) win over
// the folder routes' /:id in Fastify's router.
import type { FastifyInstance } from 'fastify';
import { ciphertextHeaders } from '../../files/ciphertext-headers.ts';
import { sendCiphertext } from '../../files/ciphertext-response.ts';
import { FileNotFoundError, UploadNotFoundError } from '../../files/errors.ts';
import { toFileResponse } from '../../files/file-response.ts';
import { FolderNotFoundError } from '../../folders/errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import {
  deleteFilesBody,
  deleteFilesResponse,
  fileIdParams,
  fileListResponse,
  MAX_LISTED_UPLOADS,
  unfinishedUploadListResponse,
  unfinishedUploadParams,
} from '../../../contract/files.ts';
import { folderIdParams } from '../../../contract/folders.ts';

export async function fileRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos, blobs } = app;

  routes.get(
    '/:id/files',
    { schema: { params: folderIdParams, response: { 200: fileListResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const folder = await repos.folders.findOwned(user.id, request.params.id);
      if (!folder) throw new FolderNotFoundError();
      const files = await repos.files.listForFolder(folder.id);
      return files.map(toFileResponse);
    },
  );

  // Unfinished resumable uploads: the space they hold, and cancelling one (its bytes go at once).
  routes.get(
    '/:id/uploads',
    { schema: { params: folderIdParams, response: { 200: unfinishedUploadListResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const folder = await repos.folders.findOwned(user.id, request.params.id);
      if (!folder) throw new FolderNotFoundError();
      const sessions = await repos.uploadSessions.listForFolder(folder.id, MAX_LISTED_UPLOADS);
      const tusStorage = app.uploads.tusStorage;
      return Promise.all(
        sessions.map(async (session) => ({
          id: session.id,
          filename: session.filename,
          relative_path: session.relativePath,
          upload_length: session.uploadLength,
          received_bytes: await tusStorage.storedLength(session.id, session.uploadLength),
          created_at: session.createdAt,
          last_activity_at: session.lastActivityAt,
        })),
      );
    },
  );

  routes.delete(
    '/:id/uploads/:uploadId',
    { schema: { params: unfinishedUploadParams } },
    async (request, reply) => {
      const { user } = signedIn(request);
      const folder = await repos.folders.findOwned(user.id, request.params.id);
      if (!folder) throw new FolderNotFoundError();
      if (!(await repos.uploadSessions.deleteInFolder(folder.id, request.params.uploadId))) throw new UploadNotFoundError();
      await app.uploads.tusStorage.discard(request.params.uploadId);
      request.log.info({ folderId: folder.id, uploadId: request.params.uploadId }, 'unfinished upload cancelled by the admin');
      return reply.code(204).send();
    },
  );

  // GET only: an automatic HEAD route would read the whole blob just to discard it.
  routes.get(
    '/download/:fileId',
    { exposeHeadRoute: false, schema: { params: fileIdParams } },
    async (request, reply) => {
      const { user } = signedIn(request);
      const file = await repos.files.findOwned(user.id, request.params.fileId);
      if (!file) throw new FileNotFoundError();
      return sendCiphertext(request, reply, blobs, {
        blobKey: file.blobKey,
        filename: file.originalFilename,
        headers: { ...ciphertextHeaders(file), 'x-encrypted-key': file.encryptedKey },
        // "Last Downloaded" means the admin received the whole file, possibly over several ranges.
        onCompleted: async () => {
          await repos.files.markDownloaded(file.id, app.now());
          await app.activity.record(user.id, 'file.downloaded', { folderId: file.folderId, ip: request.ip, details: { file_id: file.id, name: file.originalFilename } });
        },
      });
    },
  );

  routes.post(
    '/files/delete',
    { schema: { body: deleteFilesBody, response: { 200: deleteFilesResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const requested = [...new Set(request.body.file_ids)];
      const deleted = await repos.files.deleteOwned(user.id, requested);
      const deletedIds = new Set(deleted.map((file) => file.id));
      // The rows are gone (committed); a blob that cannot be removed now is unreachable and is
      // left for the orphan sweep, not reported as a failure of the file.
      for (const { blobKey } of deleted) {
        try {
          await blobs.delete(blobKey);
        } catch (error) {
          request.log.warn({ err: error }, 'could not delete the blob of a deleted file');
        }
      }
      if (deleted.length > 0) {
        await app.activity.record(user.id, 'files.deleted', { ip: request.ip, details: { file_ids: deleted.map((file) => file.id) } });
        await app.webhooks.emit(user.id, 'files.deleted', {
          file_ids: deleted.map((file) => file.id),
        });
      }
      const errors = requested
        .filter((id) => !deletedIds.has(id))
        .map((id) => ({ file_id: id, detail: 'File not found' }));
      return { deleted: deleted.length, errors };
    },
  );
}
