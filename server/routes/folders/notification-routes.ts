// A folder's upload notifications, mounted at /api/folders/{id}/notifications: read and replace
// the setting. Another admin's folder answers 404 like a missing one.
import type { FastifyInstance } from 'fastify';
import { FolderNotFoundError } from '../../folders/errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { folderIdParams } from '../../../contract/folders.ts';
import { notificationSettings } from '../../../contract/notifications.ts';

export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  async function ownedFolderId(ownerId: number, id: number): Promise<number> {
    const folder = await repos.folders.findOwned(ownerId, id);
    if (!folder) throw new FolderNotFoundError();
    return folder.id;
  }

  routes.get(
    '/:id/notifications',
    { schema: { params: folderIdParams, response: { 200: notificationSettings } } },
    async (request) => {
      const { user } = signedIn(request);
      const settings = await repos.uploadNotifications.settingsFor(await ownedFolderId(user.id, request.params.id));
      return { mode: settings.mode, include_file_names: settings.includeFileNames };
    },
  );

  routes.put(
    '/:id/notifications',
    { schema: { params: folderIdParams, body: notificationSettings, response: { 200: notificationSettings } } },
    async (request) => {
      const { user } = signedIn(request);
      const folderId = await ownedFolderId(user.id, request.params.id);
      await repos.uploadNotifications.saveSettings(folderId, { mode: request.body.mode, includeFileNames: request.body.include_file_names });
      return request.body;
    },
  );
}
