// Every API route, mounted under /api. Later features (folders, files, upload, download links)
// register their route modules here with their own prefix.
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth/index.ts';
import { downloadLinkRoutes } from './download-links/index.ts';
import { fileRoutes } from './files/index.ts';
import { folderRoutes } from './folders/index.ts';
import { uploadRoutes } from './upload/index.ts';

export async function apiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(folderRoutes, { prefix: '/folders' });
  // Admin file routes share the /folders prefix (spec: /folders/{id}/files, /folders/download/{fileId}).
  await app.register(fileRoutes, { prefix: '/folders' });
  await app.register(downloadLinkRoutes, { prefix: '/download' });
  await app.register(uploadRoutes, { prefix: '/upload' });
}
