// Anonymous upload routes, mounted at /api/upload: the link's status and gates, the recipient's
// public key, and the two ways to send files (one multipart request, or resumable tus uploads
// completed with their hashes). See docs/api.md, "Upload".
import type { FastifyInstance } from 'fastify';
import { gateRoutes } from './gate-routes.ts';
import { transferRoutes } from './transfer-routes.ts';
import { openLinkOnRequest } from './upload-folder.ts';

export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  openLinkOnRequest(app);
  await app.register(gateRoutes);
  await app.register(transferRoutes);
}
