// Who may call an /api route, decided from the route the router matched, never from the URL's
// spelling: the router decodes `/%61pi/...` to `/api/...`, so a check on the raw URL can be
// walked around. `guardApiScope` installs the checks in the encapsulation scope that holds every
// API route, so they run for each of them however the request spelled its path:
//
// - the session is read and CSRF checked (sessions.ts) on every request;
// - deny by default: every route needs a signed-in user unless its options say `public: true`
//   (one route: `config: { public: true }`; a whole module: `publicRoutes(plugin)`);
// - no API answer may be cached (`Cache-Control: no-store` unless the route set its own);
// - a path under /api that names no route answers the JSON 404 (a catch-all route in the scope),
//   after the CSRF check, like every other API request;
// - a route with an /api path registered anywhere else stops the server at start
//   (`refuseApiRoutesOutsideTheScope`), so no route can miss these checks by where it was added.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { codedError } from '../../contract/coded-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers without a signed-in user (session and CSRF are still checked). */
    public?: boolean;
    /** Set on every route registered in the guarded API scope. */
    apiScope?: boolean;
  }
}

/** An /api route registered outside the guarded scope: it would answer without the checks. */
export class UnguardedApiRouteError extends codedError('UNGUARDED_API_ROUTE') {
  constructor(readonly route: string) {
    super(`${route} is an /api route registered outside the API scope; register it in server/routes/`);
  }
}

/** Call on the root instance before any route: start-up fails if an /api route skips the scope. */
export function refuseApiRoutesOutsideTheScope(app: FastifyInstance): void {
  const apiRoutes: Array<{ url: string; method: string | string[]; config?: { apiScope?: boolean } }> = [];
  app.addHook('onRoute', (route) => {
    if (route.url === '/api' || route.url.startsWith('/api/')) apiRoutes.push(route);
  });
  app.addHook('onReady', async () => {
    const unguarded = apiRoutes.find((route) => route.config?.apiScope !== true);
    if (unguarded) throw new UnguardedApiRouteError(`${String(unguarded.method)} ${unguarded.url}`);
  });
}

async function requireUserUnlessPublic(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.routeOptions.config.public === true || request.auth.state === 'signed-in') return;
  if (request.auth.state === 'expired') {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    throw new ApiError('SESSION_EXPIRED');
  }
  throw new ApiError('NOT_AUTHENTICATED');
}

async function notFound(): Promise<never> {
  throw new ApiError('NOT_FOUND');
}

/** Installs the checks in the scope of the API routes; call before registering any of them. */
export function guardApiScope(api: FastifyInstance): void {
  api.addHook('onRoute', (route) => {
    route.config = { ...route.config, apiScope: true };
  });
  api.addHook('onRequest', api.readSessionAndCheckCsrf);
  api.addHook('onRequest', requireUserUnlessPublic);
  api.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  // Answered from its own onRequest hook, so an unknown path's body is never read or parsed.
  api.all('/*', { config: { public: true }, onRequest: notFound }, notFound);
}

/** Registers `plugin` with every route it declares marked public (anonymous callers allowed). */
export function publicRoutes<Options extends Record<string, unknown>>(
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return async (app, options) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await plugin(app, options);
  };
}
