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
import { API_ERRORS, errorBody } from '../errors.ts';
import { english } from '../i18n/intl.ts';
import { globalPlugin } from './global-plugin.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Whether a path names something under /api however it is spelled: percent-encoded (even twice),
 * upper-case, with empty, `.` or `..` segments, backslashes, `;parameters` or trailing dots.
 * API routes live in their own scope (api-access.ts); this only keeps such a path from being
 * answered with a file or the app page, so it gets the API's JSON 404 instead.
 */
export function looksLikeApiPath(url: string): boolean {
  let path = url.split(/[?#]/, 1)[0] ?? '';
  for (let round = 0; round < 3 && path.includes('%'); round += 1) {
    try {
      path = decodeURIComponent(path);
    } catch {
      break;
    }
  }
  const segments: string[] = [];
  for (const segment of path.toLowerCase().split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const first = segments[0]?.replace(/;.*$/s, '').replace(/[.\s\0]+$/, '');
  return first === 'api';
}

/** A page navigation the SPA should handle: GET/HEAD of a path whose last segment has no extension. */
function isAppRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (looksLikeApiPath(request.url)) return false;
  const pathname = request.url.split('?')[0] ?? '/';
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !lastSegment.includes('.');
}

function notFound(reply: FastifyReply) {
  return reply.code(404).send(errorBody('NOT_FOUND', english(API_ERRORS.NOT_FOUND.detail)));
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
    allowedPath: (pathName) => !looksLikeApiPath(pathName),
    setHeaders: (reply, filePath) => {
      const relative = path.relative(root, filePath).split(path.sep).join('/');
      reply.header('cache-control', relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    },
  });

  // A path that spells /api some other way (`//api/x`, `/API/x`, `/x/../api`) never reaches the
  // file lookup, which would answer it with a 403 for an odd spelling or with the app page.
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url === '/*' && looksLikeApiPath(request.url)) return notFound(reply);
  });

  app.setNotFoundHandler((request, reply) => {
    if (!isAppRoute(request) || !fs.existsSync(indexFile)) return notFound(reply);
    return reply.header('cache-control', REVALIDATE).sendFile('index.html');
  });
});
