// The signed-in account's folders, mounted at /api/folders: list (sortable; its own and those it is
// a member of), read, create, update, delete. Every lookup goes through requireFolderRole: a folder
// the account is neither owner nor member of answers 404 exactly like a missing one, a member whose
// role is too weak 403 (members read, managers change settings, only the owner deletes).
import type { FastifyInstance } from 'fastify';
import { newToken } from '../../auth/tokens.ts';
import { changedSettings, folderChanges, newFolder } from '../../folders/folder-changes.ts';
import { FolderNotFoundError } from '../../folders/errors.ts';
import { recordFolderActivity } from '../../folders/folder-activity.ts';
import { requireFolderRole } from '../../folders/folder-access.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { toFolderResponse } from './folder-response.ts';
import { folderIdParams, folderListQuery, folderListResponse, folderPayload, folderResponse } from '../../../contract/folders.ts';

export async function folderRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos, blobs } = app;

  routes.get(
    '/',
    { schema: { querystring: folderListQuery, response: { 200: folderListResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const { sort_by, sort_order } = request.query;
      const folders = await repos.folders.listForAccount(user.id, { by: sort_by, order: sort_order });
      return folders.map(toFolderResponse);
    },
  );

  routes.get(
    '/:id',
    { schema: { params: folderIdParams, response: { 200: folderResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      return toFolderResponse(await requireFolderRole(repos, user.id, request.params.id, 'reader'));
    },
  );

  routes.post(
    '/',
    { schema: { body: folderPayload, response: { 201: folderResponse } } },
    async (request, reply) => {
      const { user } = signedIn(request);
      const input = await newFolder(request.body, { ownerId: user.id, linkToken: newToken(), now: app.now(), defaults: app.config.folderDefaults });
      const folder = await repos.folders.create(input);
      await app.activity.record(user.id, 'folder.created', { folderId: folder.id, ip: request.ip, details: { title: folder.title } });
      return reply.code(201).send(toFolderResponse({ ...folder, myRole: 'owner' }));
    },
  );

  routes.put(
    '/:id',
    { schema: { params: folderIdParams, body: folderPayload, response: { 200: folderResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const { id } = request.params;
      const before = await requireFolderRole(repos, user.id, id, 'manager');
      const changes = await folderChanges(request.body, app.now());
      if (!(await repos.folders.updateOwned(before.ownerId, id, changes))) throw new FolderNotFoundError();
      const updated = await requireFolderRole(repos, user.id, id, 'reader');
      const changed = changedSettings(before, changes);
      await recordFolderActivity(app, user, updated, 'folder.updated', { ip: request.ip, details: { title: updated.title, changed } });
      return toFolderResponse(updated);
    },
  );

  routes.delete('/:id', { schema: { params: folderIdParams } }, async (request, reply) => {
    const { user } = signedIn(request);
    await requireFolderRole(repos, user.id, request.params.id, 'owner');
    const deleted = await repos.folders.deleteOwned(user.id, request.params.id);
    if (!deleted) throw new FolderNotFoundError();
    await app.activity.record(user.id, 'folder.deleted', { folderId: request.params.id, ip: request.ip, details: { files: deleted.blobKeys.length } });
    // The rows are gone (committed), so nothing points at these blobs any more. A blob that cannot
    // be removed now is unreachable and is left for the orphan sweep, not reported as a failure.
    for (const blobKey of deleted.blobKeys) {
      try {
        await blobs.delete(blobKey);
      } catch (error) {
        request.log.warn({ err: error, blobKey }, 'could not delete the blob of a deleted folder');
      }
    }
    // Unfinished uploads' bytes are freed now too, not when the sweep finds them abandoned.
    for (const uploadId of deleted.uploadIds) {
      try {
        await app.uploads.tusStorage.discard(uploadId);
      } catch (error) {
        request.log.warn({ err: error, uploadId }, 'could not delete the bytes of an unfinished upload of a deleted folder');
      }
    }
    return reply.code(204).send();
  });
}
