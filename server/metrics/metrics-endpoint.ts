// Who may read /metrics and where it is served (docs/operations.md, "Metrics"): with METRICS_TOKEN
// a scrape must carry `Authorization: Bearer <token>`; with METRICS_PORT the series are served by
// a listener of their own (nothing else on it), so the app's port never shows them.
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { errorBody } from '../errors.ts';

/** True when `authorization` is `Bearer <token>`; compared in constant time (over digests, so lengths may differ). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** The answer to a scrape: 200 with the series, or 401 in the API's error shape. */
export async function scrape(registry: Registry, authorization: string | undefined, token: string | null): Promise<{ status: number; type: string; body: string }> {
  if (token !== null && !bearerMatches(authorization, token)) {
    return { status: 401, type: 'application/json; charset=utf-8', body: JSON.stringify(errorBody('NOT_AUTHENTICATED', 'Not authenticated')) };
  }
  return { status: 200, type: registry.contentType, body: await registry.metrics() };
}

/** The separate metrics listener: GET /metrics only, everything else 404. */
export async function startMetricsListener(
  registry: Registry,
  options: { host: string; port: number; token: string | null },
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(errorBody('NOT_FOUND', 'Not Found')));
      return;
    }
    scrape(registry, request.headers.authorization, options.token).then(
      (answer) => {
        const headers: Record<string, string> = { 'content-type': answer.type, 'cache-control': 'no-store' };
        if (answer.status === 401) headers['www-authenticate'] = 'Bearer';
        response.writeHead(answer.status, headers).end(answer.body);
      },
      () => response.writeHead(500).end(),
    );
  });
  // A scrape is small: a connection left open by a scraper must not hold the process at shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
