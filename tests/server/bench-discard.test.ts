// The benchmark's discard route (server/routes/bench/discard-route.ts): absent unless
// BENCH_DISCARD_ROUTE is set; when set, it reads any body up to its limit and answers how many
// bytes arrived, and refuses a larger or undeclared body without reading it.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

let off: TestServer;
let on: TestServer;

beforeAll(async () => {
  [off, on] = await Promise.all([startServer(), startServer({ env: { BENCH_DISCARD_ROUTE: '1' } })]);
});
afterAll(() => Promise.all([off.close(), on.close()]));

async function discard(server: TestServer, body: Uint8Array<ArrayBuffer>): Promise<{ status: number; body: unknown }> {
  const client = server.client();
  await client.primeCsrf();
  const response = await fetch(`${server.baseUrl}/api/bench/discard`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'x-csrftoken': client.csrfToken!, cookie: `csrftoken=${client.csrfToken}` },
    body,
  });
  return { status: response.status, body: await response.json() };
}

describe('POST /api/bench/discard', () => {
  it('does not exist unless BENCH_DISCARD_ROUTE is set', async () => {
    expect(await discard(off, new Uint8Array(10))).toEqual({ status: 404, body: { detail: 'Not Found', code: 'NOT_FOUND' } });
  });

  it('reads the whole body and answers its length, for many clients at once', async () => {
    const sizes = [0, 1, 65_536, 5 * 1024 * 1024 + 7, 16 * 1024 * 1024];
    const answers = await Promise.all(sizes.map((size) => discard(on, new Uint8Array(size))));
    expect(answers).toEqual(sizes.map((bytes) => ({ status: 200, body: { bytes } })));
  });

  it('still checks CSRF like every API route', async () => {
    const response = await fetch(`${on.baseUrl}/api/bench/discard`, { method: 'POST', body: new Uint8Array(3) });
    expect(response.status).toBe(403);
  });

  it('refuses a body that declares more than 256 MiB, or no length, without reading it', async () => {
    const client = on.client();
    await client.primeCsrf();
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${on.baseUrl}/api/bench/discard`, {
        method: 'POST',
        headers: { 'content-length': String(300 * 1024 * 1024), 'x-csrftoken': client.csrfToken!, cookie: `csrftoken=${client.csrfToken}` },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.write(new Uint8Array(1024));
    });
    expect(status).toBe(413);
    const chunked = await fetch(`${on.baseUrl}/api/bench/discard`, {
      method: 'POST',
      headers: { 'x-csrftoken': client.csrfToken!, cookie: `csrftoken=${client.csrfToken}` },
      body: new ReadableStream({ start: (c) => { c.enqueue(new Uint8Array(4)); c.close(); } }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ detail: 'The body must declare a Content-Length of at most 256 MiB.', code: 'PAYLOAD_TOO_LARGE' });
  });
});
