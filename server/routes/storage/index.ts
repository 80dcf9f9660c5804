// GET /api/storage: the signed-in admin's storage at a glance (the dashboard's storage panel): what
// their folders hold together, the disk store's free space and reserve, and the defaults a new
// folder gets (the create form shows them).
import type { FastifyInstance } from 'fastify';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { storageOverviewResponse } from '../../../contract/storage.ts';

export async function storageRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/', { schema: { response: { 200: storageOverviewResponse } } }, async (request) => {
    const { user } = signedIn(request);
    const totals = await app.repos.folderUsage.totalsForOwner(user.id);
    const { space } = app.uploads;
    const defaults = app.config.folderDefaults;
    return {
      used_bytes: totals.bytes,
      used_files: totals.files,
      folders: totals.folders,
      store: app.config.blobStore.kind,
      free_bytes: await space.freeBytes(),
      reserve_bytes: space.reserveBytes,
      folder_defaults: {
        storage_limit_bytes: defaults.storageLimitBytes,
        file_limit: defaults.fileLimit,
        retention_days: defaults.retentionDays,
      },
    };
  });
}
