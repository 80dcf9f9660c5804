// Every API route, mounted under /api, each feature's route module with its own prefix. The
// scope's checks (api-access.ts) come first: a route needs a signed-in user unless it is public.
import type { FastifyInstance } from 'fastify';
import { guardApiScope, publicRoutes } from '../plugins/api-access.ts';
import { activityRoutes } from './activity/index.ts';
import { authRoutes } from './auth/index.ts';
import { benchDiscardRoutes } from './bench/discard-route.ts';
import { downloadLinkRoutes } from './download-links/index.ts';
import { exportRoutes } from './files/export.ts';
import { fileRoutes } from './files/index.ts';
import { folderRoutes } from './folders/index.ts';
import { invitationRoutes } from './invitations/index.ts';
import { notificationRoutes } from './folders/notification-routes.ts';
import { teamRoutes } from './folders/team-routes.ts';
import { orgRoutes } from './org/index.ts';
import { metaRoutes } from './meta/index.ts';
import { storageRoutes } from './storage/index.ts';
import { uploadRoutes } from './upload/index.ts';

export async function apiRoutes(app: FastifyInstance): Promise<void> {
  guardApiScope(app);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(folderRoutes, { prefix: '/folders' });
  // Admin file routes share the /folders prefix (spec: /folders/{id}/files, /folders/download/{fileId}).
  await app.register(fileRoutes, { prefix: '/folders' });
  await app.register(exportRoutes, { prefix: '/folders' });
  await app.register(notificationRoutes, { prefix: '/folders' });
  await app.register(teamRoutes, { prefix: '/folders' });
  await app.register(downloadLinkRoutes, { prefix: '/download' });
  await app.register(activityRoutes, { prefix: '/activity' });
  await app.register(storageRoutes, { prefix: '/storage' });
  await app.register(orgRoutes, { prefix: '/org' });
  // The invitation's token is the capability: the invitee has no account yet.
  await app.register(publicRoutes(invitationRoutes), { prefix: '/invitations' });
  // The upload link is the capability: no account (spec: "Upload (anonymous)").
  await app.register(publicRoutes(uploadRoutes), { prefix: '/upload' });
  await app.register(metaRoutes);
  if (app.config.benchDiscardRoute) await app.register(benchDiscardRoutes, { prefix: '/bench' });
}
