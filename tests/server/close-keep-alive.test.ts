// Closing the app while a keep-alive connection is still answering a request (the CI incident of
// tests/server/legacy-fixture.test.ts: a download's last read finished just after the close
// began). Node closes the idle connections once, when the close begins; the lifecycle plugin
// closes a connection that becomes idle later, so the close does not wait for the keep-alive
// timeout (72 s).
import http from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer | undefined;
afterEach(async () => {
  server?.app.server.closeAllConnections();
  await server?.close().catch(() => {});
  server = undefined;
});

function get(agent: http.Agent, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

it('a connection whose answer ends after the close began is closed then, so the close finishes', async () => {
  let answer!: () => void;
  const answerReleased = new Promise<void>((resolve) => (answer = resolve));
  let requestArrived!: () => void;
  const arrived = new Promise<void>((resolve) => (requestArrived = resolve));
  server = await startServer({
    setup: (app) => {
      app.get('/held-answer', { config: { public: true } }, async () => {
        requestArrived();
        await answerReleased;
        return 'done';
      });
    },
  });
  const agent = new http.Agent({ keepAlive: true });
  try {
    const body = get(agent, `${server.baseUrl}/held-answer`);
    await arrived;
    const closed = server.app.close().then(() => 'closed' as const);
    // The close has begun (its preClose hooks ran) while the answer is still held.
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer();
    expect(await body).toBe('done');
    const stillOpen = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 10_000).unref());
    expect(await Promise.race([closed, stillOpen])).toBe('closed');
  } finally {
    agent.destroy();
  }
}, 30_000);
