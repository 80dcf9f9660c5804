// Download-link routes, mounted at /api/download: the admin's (/links...) need a session, the
// recipient's (/{link_token}/...) are public. The static "links" segment wins over the token
// parameter in Fastify's router; issued tokens are 43 characters, so none is "links".
import type { FastifyInstance } from 'fastify';
import { publicRoutes } from '../../plugins/api-access.ts';
import { adminLinkRoutes } from './admin-links.ts';
import { publicLinkRoutes } from './public-links.ts';

export async function downloadLinkRoutes(app: FastifyInstance): Promise<void> {
  await app.register(adminLinkRoutes, { prefix: '/links' });
  await app.register(publicRoutes(publicLinkRoutes));
}
