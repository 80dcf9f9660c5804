// A folder's upload notifications, mounted at /api/folders/{id}/notifications: read and replace
// the setting (members read it, managers change it). A folder the account is not a member of
// answers 404 like a missing one.
import type { FastifyInstance } from 'fastify';
import { requireFolderRole } from '../../folders/folder-access.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { folderIdParams } from '../../../contract/folders.ts';
import { notificationSettings } from '../../../contract/notifications.ts';

export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  routes.get(
    '/:id/notifications',
    { schema: { params: folderIdParams, response: { 200: notificationSettings } } },
    async (request) => {
      const { user } = signedIn(request);
      const settings = await repos.uploadNotifications.settingsFor((await requireFolderRole(repos, user.id, request.params.id, 'reader')).id);
      return { mode: settings.mode, include_file_names: settings.includeFileNames };
    },
  );

  routes.put(
    '/:id/notifications',
    { schema: { params: folderIdParams, body: notificationSettings, response: { 200: notificationSettings } } },
    async (request) => {
      const { user } = signedIn(request);
      const folderId = (await requireFolderRole(repos, user.id, request.params.id, 'manager')).id;
      await repos.uploadNotifications.saveSettings(folderId, { mode: request.body.mode, includeFileNames: request.body.include_file_names });
      return request.body;
    },
  );
}
