// The signed-in admin's files, mounted under /api/folders next to the folder routes: a folder's
// file list, the ciphertext download of one file, and deleting files. A file or folder of another
// admin answers 404 exactly like a missing one. The static segments (download, files) win over
// the folder routes' /:id in Fastify's router.
import type { FastifyInstance } from 'fastify';
import { ciphertextHeaders } from '../../files/ciphertext-headers.ts';
import { sendCiphertext } from '../../files/ciphertext-response.ts';
import { FileNotFoundError } from '../../files/errors.ts';
import { toFileResponse } from '../../files/file-response.ts';
import { FolderNotFoundError } from '../../folders/errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { deleteFilesBody, deleteFilesResponse, fileIdParams, fileListResponse } from '../../../contract/files.ts';
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
        onCompleted: () => repos.files.markDownloaded(file.id, app.now()),
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
      const errors = requested
        .filter((id) => !deletedIds.has(id))
        .map((id) => ({ file_id: id, detail: 'File not found' }));
      return { deleted: deleted.length, errors };
    },
  );
}
