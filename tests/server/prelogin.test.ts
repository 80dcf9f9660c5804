// POST /api/auth/prelogin: the parameter block a client derives an account's authentication
// secret with. Names with and without an account (and accounts not yet upgraded) get answers of
// the same shape, at the same cost, each the same on every call, in another letter case and from
// another server process on the same database (SQLite here; PostgreSQL under `npm run test:pg`);
// so the answer tells an anonymous caller nothing about which names exist. Every call counts
// against the per-address limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGON2_DEFAULT_COST, parseAccountKdfParams } from '../../crypto/index.ts';
import { createUser } from '../../server/auth/user-admin.ts';
import { createLegacyAccount } from '../support/legacy-account.ts';
import { startServer, type TestServer } from './harness.ts';
import { TestClient } from './http-client.ts';
import { startPeerProcess, type PeerProcess } from './peer-process.ts';

const PRELOGIN_LIMIT = 40;
let server: TestServer;
let peer: PeerProcess;

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_PRELOGIN_PER_IP: String(PRELOGIN_LIMIT), TRUST_PROXY: 'true' } });
  // Accounts as the CLI and the app make them: the default cost.
  await createUser(server.app.repos, { username: 'Known', password: 'correct horse', now: server.clock.now() });
  await createUser(server.app.repos, { username: 'other.known', password: 'correct horse', now: server.clock.now() });
  await createLegacyAccount(server.app.repos, { username: 'not-yet-upgraded', password: 'old password', now: server.clock.now() });
  peer = await startPeerProcess(server);
}, 60_000);

afterAll(async () => {
  await peer?.stop();
  await server?.close();
});

let addresses = 0;
/** A client at its own address, so the per-address count of one test does not run into another's. */
function clientAt(baseUrl = server.baseUrl): TestClient {
  const address = `192.0.2.${++addresses}`;
  const client = new TestClient(baseUrl);
  const request = client.request.bind(client);
  client.request = (method, path, options = {}) => request(method, path, { ...options, headers: { ...options.headers, 'x-forwarded-for': address } });
  return client;
}

async function answer(client: TestClient, username: string) {
  const response = await client.post<{ kdf_params: string }>('/api/auth/prelogin', { username });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response;
}

describe('POST /api/auth/prelogin', () => {
  it('answers names with an account, without one, and not yet upgraded alike: same fields, a block bound to the lower-cased name (scheme 3) at the default cost, a length given by the name alone', async () => {
    const client = clientAt();
    await client.primeCsrf();
    const names = ['Known', 'other.known', 'not-yet-upgraded', 'nobody', 'nobody.else', 'x'.repeat(128)];
    const answers = await Promise.all(names.map((name) => answer(client, name)));
    for (const [index, response] of answers.entries()) {
      expect(Object.keys(response.body), names[index]).toEqual(['kdf_params']);
      const name = names[index]!;
      expect(parseAccountKdfParams(response.body.kdf_params, name), name).toMatchObject({ ...ARGON2_DEFAULT_COST, scheme: 3, name: name.toLowerCase() });
      expect(response.body.kdf_params, name).toBe(Buffer.from(response.body.kdf_params, 'base64').toString('base64'));
      expect(response.headers.get('content-type'), name).toBe(answers[0]!.headers.get('content-type'));
      const lengthBeyondName = (at: number) => Number(answers[at]!.headers.get('content-length')) - Math.ceil((26 + names[at]!.length) / 3) * 4;
      expect(lengthBeyondName(index), name).toBe(lengthBeyondName(0));
    }
    // Every name has its own salt.
    expect(new Set(answers.map((response) => response.body.kdf_params)).size).toBe(names.length);
    // The account's answer is its own block.
    expect(answers[0]!.body.kdf_params).toBe((await server.app.repos.users.findByUsername('known'))!.kdfParams);
  });

  it('gives every name the same answer on every call and in any letter case', async () => {
    const client = clientAt();
    await client.primeCsrf();
    for (const [name, spelling] of [['Known', 'kNOWN'], ['nobody', 'NoBody'], ['not-yet-upgraded', 'NOT-YET-UPGRADED']]) {
      const first = (await answer(client, name!)).body.kdf_params;
      expect((await answer(client, name!)).body.kdf_params).toBe(first);
      expect((await answer(client, spelling!)).body.kdf_params).toBe(first);
    }
  });

  it('gives the same answers from a second server process on the same database', async () => {
    const here = clientAt();
    const there = clientAt(peer.baseUrl);
    await here.primeCsrf();
    await there.primeCsrf();
    for (const name of ['Known', 'nobody', 'not-yet-upgraded', 'someone-never-seen']) {
      expect((await answer(there, name)).body.kdf_params, name).toBe((await answer(here, name)).body.kdf_params);
    }
  });

  it('counts every call against the address, over both processes, and answers 429 past the limit', async () => {
    const urls = [server.baseUrl, peer.baseUrl];
    const address = `198.18.0.${++addresses}`;
    const clients = urls.map((url) => {
      const client = new TestClient(url);
      const request = client.request.bind(client);
      client.request = (method, path, options = {}) => request(method, path, { ...options, headers: { ...options.headers, 'x-forwarded-for': address } });
      return client;
    });
    await Promise.all(clients.map((client) => client.primeCsrf()));
    const statuses = (
      await Promise.all(Array.from({ length: PRELOGIN_LIMIT + 20 }, (_, i) => clients[i % 2]!.post('/api/auth/prelogin', { username: `name-${i}` })))
    ).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(PRELOGIN_LIMIT);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  });

  it('refuses what cannot be a name (422) and needs the CSRF header like every POST', async () => {
    const client = clientAt();
    await client.primeCsrf();
    expect((await client.post('/api/auth/prelogin', {})).status).toBe(422);
    expect((await client.post('/api/auth/prelogin', { username: 'a\u0000b' })).status).toBe(422);
    expect((await client.post('/api/auth/prelogin', { username: 'y'.repeat(129) })).status).toBe(422);
    expect((await client.post('/api/auth/prelogin', { username: 'Known' }, { csrf: false })).status).toBe(403);
  });
});
