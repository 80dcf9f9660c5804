// The routes the API scope holds and the operators' endpoints, as the router received them: the OpenAPI document
// (./document.ts) is built from their own schemas, so what is documented is what is validated.
// The route objects are kept rather than copied because scopes registered later still adjust them
// (publicRoutes marks `config.public` in a child scope's onRoute hook, after this one ran).
import type { FastifyInstance, RouteOptions } from 'fastify';
import { globalPlugin } from '../plugins/global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    apiRouteCatalogue: ApiRouteCatalogue;
  }
}

/** One method of one route: what an OpenAPI operation describes. */
export interface CataloguedOperation {
  method: string;
  /** Fastify's spelling, e.g. `/api/folders/:id`. */
  url: string;
  route: RouteOptions;
}

export class ApiRouteCatalogue {
  private readonly routes: RouteOptions[] = [];

  add(route: RouteOptions): void {
    this.routes.push(route);
  }

  /**
   * Every method of every /api route once, without the router's aliases: the scope's catch-all
   * 404 (`/api/*`), the trailing-slash spelling Fastify gives a prefix's `/` route (documented
   * bare, as clients call it), and an automatic HEAD beside a GET.
   */
  operations(): CataloguedOperation[] {
    const byKey = new Map<string, CataloguedOperation>();
    for (const route of this.routes) {
      if (route.url.includes('*')) continue;
      const url = route.url.length > 1 && route.url.endsWith('/') ? route.url.slice(0, -1) : route.url;
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        byKey.set(`${method} ${url}`, { method, url, route });
      }
    }
    return [...byKey.values()].filter(
      (operation) => !(operation.method === 'HEAD' && byKey.has(`GET ${operation.url}`) && !isExplicitHead(operation.route)),
    );
  }
}

/** A route that lists HEAD among several methods asked for it (tus); a lone HEAD is Fastify's copy of a GET. */
function isExplicitHead(route: RouteOptions): boolean {
  return Array.isArray(route.method) && route.method.length > 1 && route.method.includes('HEAD');
}

/** The operators' endpoints outside /api (docs/operations.md), documented with the API. */
const OPERATOR_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** Register before the first route it lists: collects every route under /api, and the operators' ones, as it is added. */
export const routeCataloguePlugin = globalPlugin('route-catalogue', async (app: FastifyInstance) => {
  const catalogue = new ApiRouteCatalogue();
  app.decorate('apiRouteCatalogue', catalogue);
  app.addHook('onRoute', (route) => {
    if (route.url === '/api' || route.url.startsWith('/api/') || OPERATOR_PATHS.has(route.url)) catalogue.add(route);
  });
});
