// /healthz and /readyz (docs/operations.md, "Health, metrics and shutdown") over real HTTP: ready
// when the database and the blob store answer; 503 with the failing check named when one fails or
// hangs; 503 "draining" from the moment a stop signal came, while the process is still alive and
// still serves every other request.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('health and readiness', () => {
  it('healthz answers ok and readyz ready once listening, both uncached', async () => {
    server = await startServer();
    const client = server.client();
    const health = await client.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers.get('cache-control')).toBe('no-store');
    const ready = await client.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', blob_store: 'ok' } });
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('readyz answers 503 naming the database when it fails, and the blob store when it hangs past the time limit', async () => {
    let databaseDown = false;
    let storeHangs = false;
    server = await startServer({
      setup(app) {
        const ping = app.repos.health.ping;
        app.repos.health.ping = async () => {
          if (databaseDown) throw new Error('connection refused');
          return ping();
        };
        const stat = app.blobs.stat.bind(app.blobs);
        app.blobs.stat = (key) => (storeHangs ? new Promise(() => {}) : stat(key));
      },
    });
    const client = server.client();
    databaseDown = true;
    const noDatabase = await client.get('/readyz');
    expect(noDatabase.status).toBe(503);
    expect(noDatabase.body).toEqual({ status: 'unavailable', checks: { database: 'failed', blob_store: 'ok' } });
    expect((await client.get('/healthz')).status).toBe(200);

    databaseDown = false;
    storeHangs = true;
    const hungStore = await client.get('/readyz');
    expect(hungStore.status).toBe(503);
    expect(hungStore.body).toEqual({ status: 'unavailable', checks: { database: 'ok', blob_store: 'failed' } });

    storeHangs = false;
    expect((await client.get('/readyz')).status).toBe(200);
  });

  it('draining: readyz answers 503 at once while healthz and the API still answer', async () => {
    server = await startServer();
    const client = server.client();
    server.app.lifecycle.beginDraining(Date.now() + 60_000, Date.now() + 65_000);
    const ready = await client.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'draining', checks: { database: 'skipped', blob_store: 'skipped' } });
    expect((await client.get('/healthz')).status).toBe(200);
    expect((await client.get('/api/auth/users/me')).status).toBe(401);
  });
});
