// A dead download link (expired, used up, deleted) answers as dead on every recipient route before
// any password work: verify-password must not tell a right verifier from a wrong one, and must not
// hand out the wrapped keys, once the link can no longer be downloaded. The routes are taken from
// the router, so a route added later is checked too.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { createFolder, getBytes, seedFile, type SeededFile } from './files-fixtures.ts';
import { counterKeys, observeDatabase } from './table-rows.ts';
import type { OpenDatabase } from '../../server/db/connection.ts';

let server: TestServer;
let alice: TestClient;
let observer: OpenDatabase;

beforeAll(async () => {
  server = await startServer();
  alice = (await signedInClient(server, 'alice')).client;
  observer = await observeDatabase(server);
});
afterAll(async () => {
  await observer?.close();
  await server?.close();
});

const VERIFIER = 'Sonnenblume-Wasserfall26-417-verifier';
const KDF_BLOCK = Buffer.concat([Buffer.from([2, 0, 1, 0, 0, 0, 0, 0, 3, 1]), randomBytes(16)]);
const wrappedKey = () => `${Buffer.concat([KDF_BLOCK, randomBytes(60)]).toString('base64')}:${randomBytes(60).toString('base64')}`;
const EXPIRED = { detail: 'This link has expired.', code: 'LINK_EXPIRED' };
const NOT_FOUND = { detail: 'Download link not found.', code: 'LINK_NOT_FOUND' };

interface PasswordLink {
  token: string;
  folderId: number;
  file: SeededFile;
}

async function passwordLink(options: { maxDownloads?: number; expiresInMs?: number } = {}): Promise<PasswordLink> {
  const folder = await createFolder(alice, `Dead ${randomBytes(3).toString('hex')}`);
  const file = await seedFile(server, folder.id, { name: 'contract.pdf', content: randomBytes(3000) });
  const response = await alice.post('/api/download/links', {
    file_ids: [file.id],
    password: VERIFIER,
    reencrypted_keys_json: JSON.stringify({ [file.id]: wrappedKey() }),
    expiration_date: options.expiresInMs ? new Date(server.clock.now() + options.expiresInMs).toISOString() : null,
    max_downloads: options.maxDownloads ?? null,
  });
  expect(response.status).toBe(201);
  return { token: response.body.link_token, folderId: folder.id, file };
}

async function recipient(): Promise<TestClient> {
  const client = server.client();
  await client.primeCsrf();
  return client;
}

/** Downloads the whole file as a recipient with the password: the link's one download. */
async function useUp(link: PasswordLink): Promise<void> {
  const first = await recipient();
  expect((await first.get(`/api/download/${link.token}/status`)).status).toBe(200);
  expect((await first.post(`/api/download/${link.token}/verify-password`, { password: VERIFIER })).status).toBe(200);
  const whole = await getBytes(first, `/api/download/${link.token}/file/${link.file.id}`);
  expect(whole.status).toBe(200);
  expect(whole.body.equals(link.file.content)).toBe(true);
  await server.settled();
}

/** Every recipient route under /api/download/{link_token}, as the router has them. */
function recipientRoutes(): Array<{ method: string; url: string }> {
  return server.app.apiRouteCatalogue
    .operations()
    .filter((operation) => operation.url.startsWith('/api/download/:link_token/'))
    .map(({ method, url }) => ({ method, url }));
}

interface Answer {
  status: number;
  body: unknown;
}

/** Calls one route of the link; verify-password with the given verifier. */
async function call(client: TestClient, route: { method: string; url: string }, link: PasswordLink, verifier: string): Promise<Answer> {
  const path = route.url.replace(':link_token', link.token).replace(':fileId', String(link.file.id));
  if (route.method === 'GET') {
    const answer = await getBytes(client, path);
    const text = answer.body.toString();
    return { status: answer.status, body: text.startsWith('{') ? JSON.parse(text) : text };
  }
  const answer = await client.request(route.method, path, { json: route.url.endsWith('/verify-password') ? { password: verifier } : {} });
  return { status: answer.status, body: answer.body };
}

async function passwordCounters(): Promise<number> {
  return (await counterKeys(observer, 'link-password:')).length;
}

describe('a dead password link', () => {
  it('has the recipient routes this test walks (status, verify-password, file)', () => {
    const urls = recipientRoutes().map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'GET /api/download/:link_token/status',
        'POST /api/download/:link_token/verify-password',
        'GET /api/download/:link_token/file/:fileId',
      ]),
    );
  });

  const kinds: Array<{ kind: string; make: () => Promise<PasswordLink>; answer: { status: number; body: unknown } }> = [
    {
      kind: 'used up (its download limit reached)',
      make: async () => {
        const link = await passwordLink({ maxDownloads: 1 });
        await useUp(link);
        return link;
      },
      answer: { status: 410, body: EXPIRED },
    },
    {
      kind: 'expired',
      make: async () => {
        const link = await passwordLink({ expiresInMs: 60_000 });
        server.clock.advance(60_000);
        return link;
      },
      answer: { status: 410, body: EXPIRED },
    },
    {
      kind: 'deleted',
      make: async () => {
        const link = await passwordLink();
        expect((await alice.request('DELETE', `/api/download/links/${link.token}`)).status).toBe(204);
        return link;
      },
      answer: { status: 404, body: NOT_FOUND },
    },
  ];

  for (const { kind, make, answer } of kinds) {
    it(`answers ${answer.status} on every route when ${kind}, to the right and a wrong verifier alike, before any password check`, async () => {
      const link = await make();
      const countersBefore = await passwordCounters();
      const stranger = await recipient();
      for (const route of recipientRoutes()) {
        for (const verifier of [VERIFIER, 'Wrong-guess-of-the-verifier-0001']) {
          const got = await call(stranger, route, link, verifier);
          expect(got, `${route.method} ${route.url} (${verifier === VERIFIER ? 'right' : 'wrong'} verifier)`).toEqual(answer);
        }
      }
      // No guess was counted: the password was never looked at.
      expect(await passwordCounters()).toBe(countersBefore);
    });
  }
});
