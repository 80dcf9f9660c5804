// What surrounds the routes: the built app served on the same origin (with SPA fallback and
// cache headers), security headers, 404s under /api, hidden 5xx details.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnguardedApiRouteError } from '../../server/plugins/api-access.ts';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-dist-'));
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Sealdrop</title><div id="root"></div>');
  fs.writeFileSync(path.join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(staticDir, 'assets', 'index-AbC123.js'), 'console.log(1);');
  server = await startServer({
    env: { STATIC_DIR: staticDir },
    setup: (app) => {
      app.get('/test/failure', async () => {
        throw new Error('database password is hunter2');
      });
    },
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

describe('the built app', () => {
  it('serves index.html at / and for client-side routes, revalidated on every load', async () => {
    for (const route of ['/', '/login', '/dashboard', '/folders/view/12', '/no/such/page']) {
      const response = await fetch(server.baseUrl + route);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<div id="root">');
    }
  });

  it('serves sw.js with no-cache and hashed assets as immutable', async () => {
    const sw = await fetch(`${server.baseUrl}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const asset = await fetch(`${server.baseUrl}/assets/index-AbC123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('answers 404 for a missing file rather than the app page', async () => {
    const response = await fetch(`${server.baseUrl}/assets/missing-123.js`);
    expect(response.status).toBe(404);
  });

  it('sends a Content-Security-Policy that allows what the app needs and nothing from elsewhere', async () => {
    const response = await fetch(`${server.baseUrl}/login`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('API edges', () => {
  it('answers unknown /api routes with JSON 404, for any method', async () => {
    const client = server.client();
    const get = await client.get('/api/nothing/here');
    expect(get.status).toBe(404);
    expect(get.body).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
    const post = await client.post('/api/nothing/here', {});
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
  });

  it('refuses to start with an /api route registered outside the guarded API scope', async () => {
    const start = startServer({
      setup: (app) => {
        app.get('/api/sneaky', async () => ({ secret: 'no session needed' }));
      },
    });
    await expect(start).rejects.toThrow(UnguardedApiRouteError);
  });

  it('hides the details of a server error', async () => {
    const response = await server.client().get('/test/failure');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ detail: 'Internal Server Error', code: 'INTERNAL' });
  });

  it('answers malformed JSON with a 400 detail', async () => {
    const client = server.client();
    await client.primeCsrf();
    const response = await client.request('POST', '/api/auth/token/2fa', {
      headers: { 'content-type': 'application/json' },
      csrf: client.csrfToken,
    });
    // An empty JSON body counts as no body: a validation error, not a parse error.
    expect(response.status).toBe(422);
    const bad = await fetch(`${server.baseUrl}/api/auth/token/2fa`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `csrftoken=${client.csrfToken}`,
        'x-csrftoken': client.csrfToken!,
      },
      body: '{"username":',
    });
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { detail: unknown; code: unknown };
    expect(typeof badBody.detail).toBe('string');
    expect(badBody.code).toBe('BAD_REQUEST');
  });
});

describe('without a built app', () => {
  it('still serves the API', async () => {
    const apiOnly = await startServer();
    try {
      const me = await apiOnly.client().get('/api/auth/users/me');
      expect(me.status).toBe(401);
      expect(me.body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
      expect((await fetch(`${apiOnly.baseUrl}/login`)).status).toBe(404);
    } finally {
      await apiOnly.close();
    }
  });
});
