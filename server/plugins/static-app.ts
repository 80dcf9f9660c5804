// Serves the built browser app (STATIC_DIR, the Vite build) on the same origin as the API, and
// answers everything no route claims: unknown /api paths get JSON 404; other page navigations get
// index.html so the client-side router can show the route (or its own 404 page).
//
// Caching: index.html, sw.js and other unhashed files must be revalidated on every load so a new
// build takes effect (no-cache still allows ETag revalidation); Vite's content-hashed files under
// /assets/ never change and may be cached forever.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_ERRORS } from '../errors.ts';
import { globalPlugin } from './global-plugin.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** A page navigation the SPA should handle: GET/HEAD of a path whose last segment has no extension. */
function isAppRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (isApiPath(request.url)) return false;
  const pathname = request.url.split('?')[0] ?? '/';
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !lastSegment.includes('.');
}

function notFound(reply: FastifyReply) {
  return reply.code(404).send({ detail: API_ERRORS.NOT_FOUND.detail });
}

export const staticAppPlugin = globalPlugin('static-app', async (app) => {
  const root = app.config.staticDir;
  const indexFile = path.join(root, 'index.html');
  const hasApp = fs.existsSync(indexFile);

  if (!hasApp) {
    app.log.warn({ staticDir: root }, 'no built app found (run `npm run build`); serving the API only');
    app.setNotFoundHandler((_request, reply) => notFound(reply));
    return;
  }

  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    dotfiles: 'ignore',
    allowedPath: (pathName) => !isApiPath(pathName),
    setHeaders: (reply, filePath) => {
      const relative = path.relative(root, filePath).split(path.sep).join('/');
      reply.header('cache-control', relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    },
  });

  app.setNotFoundHandler((request, reply) => {
    if (!isAppRoute(request) || !fs.existsSync(indexFile)) return notFound(reply);
    return reply.header('cache-control', REVALIDATE).sendFile('index.html');
  });
});
