// The files of the signed-in account's folders (its own and those it is a member of), mounted
// under /api/folders next to the folder routes: a folder's file list, the ciphertext download of
// one file, and deleting files (managers and the owner). A file or folder the account is not a
// member of answers 404 exactly like a missing one; a reader deleting is refused 403. The static segments (download, files) win over
// the folder routes' /:id in Fastify's router.
import type { FastifyInstance } from 'fastify';
import { ciphertextHeaders } from '../../files/ciphertext-headers.ts';
import { sendCiphertext } from '../../files/ciphertext-response.ts';
import { UploadNotFoundError } from '../../files/errors.ts';
import type { AccountFolder } from '../../db/repositories/index.ts';
import { toFileResponse } from '../../files/file-response.ts';
import { FolderRoleRequiredError } from '../../folders/errors.ts';
import { recordFolderActivity } from '../../folders/folder-activity.ts';
import { hasFolderRole, requireFileRole, requireFolderRole } from '../../folders/folder-access.ts';
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
      const folder = await requireFolderRole(repos, user.id, request.params.id, 'reader');
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
      const folder = await requireFolderRole(repos, user.id, request.params.id, 'reader');
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
      const folder = await requireFolderRole(repos, user.id, request.params.id, 'manager');
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
      const { file, folder } = await requireFileRole(repos, user.id, request.params.fileId, 'reader');
      return sendCiphertext(request, reply, blobs, {
        blobKey: file.blobKey,
        filename: file.originalFilename,
        headers: { ...ciphertextHeaders(file), 'x-encrypted-key': file.encryptedKey },
        // "Last Downloaded" means the admin received the whole file, possibly over several ranges.
        onCompleted: async () => {
          await repos.files.markDownloaded(file.id, app.now());
          await recordFolderActivity(app, user, folder, 'file.downloaded', { ip: request.ip, details: { file_id: file.id, name: file.originalFilename } });
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
      // Files in folders the account is not a member of are "not found"; one in a folder where it
      // is only a reader refuses the whole request (it knows those files exist).
      const found = await repos.files.listByIds(requested);
      const folders = new Map<number, AccountFolder>();
      for (const folderId of new Set(found.map((file) => file.folderId))) {
        const folder = await repos.folders.findForAccount(user.id, folderId);
        if (!folder) continue;
        if (!hasFolderRole(folder.myRole, 'manager')) throw new FolderRoleRequiredError('manager');
        folders.set(folderId, folder);
      }
      const deleted = await repos.files.deleteInFolders(requested, [...folders.keys()]);
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
      for (const folder of folders.values()) {
        const ids = found.filter((file) => file.folderId === folder.id && deletedIds.has(file.id)).map((file) => file.id);
        if (ids.length === 0) continue;
        await recordFolderActivity(app, user, folder, 'files.deleted', { ip: request.ip, details: { file_ids: ids } });
        await app.webhooks.emit(folder.ownerId, 'files.deleted', { file_ids: ids });
      }
      const errors = requested
        .filter((id) => !deletedIds.has(id))
        .map((id) => ({ file_id: id, detail: 'File not found' }));
      return { deleted: deleted.length, errors };
    },
  );
}
