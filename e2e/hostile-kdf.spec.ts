/**
 * A server that answers with weaker KDF parameters than the client would use: a node http proxy on
 * loopback stands in front of the real e2e server and rewrites two answers, the pre-login's block
 * (19 MiB, 2 passes: a third of the default cost) and a password link's block (a weaker argon2id
 * one, a scheme-1 PBKDF2 one). Every request Chromium sends through the proxy is recorded: the
 * browser derives nothing with the weak block, sends no authentication secret and no verifier, and
 * says why in the exact words of src/lib/userTexts. Then one salt handed to several names: blocks
 * bound to each name yield different secrets for the same password, a block bound to another name
 * is refused, as is an unbound block for a name this browser has seen bound.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { expect, test, type Request } from '@playwright/test';
import { argon2Block, kdfBlock, newArgon2Block, newBoundArgon2Block, SCHEME_PBKDF2 } from '../server/crypto/index.ts';
import { text } from './support/texts.ts';
import { createAdmin } from './support/admin.ts';
import { E2E_BASE_URL, SPEC_PORTS } from './support/environment.mjs';
import { linkWithFiles } from './support/link-seed.ts';

test.setTimeout(180_000);

const PROXY_PORT = SPEC_PORTS.hostileKdfProxy;
const PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;
const WEAK_ARGON2 = argon2Block({ memoryKiB: 19_456, passes: 2, lanes: 1, salt: Buffer.alloc(16, 0x42) }).toString('base64');
const SCHEME1 = kdfBlock({ scheme: SCHEME_PBKDF2, iterations: 150_000, salt: Buffer.alloc(16, 0x42) }).toString('base64');

/** What the stand-in puts in place of the real answers (null: pass the answer through); a function gets the typed name. */
const swap: { prelogin: string | ((username: string) => string) | null; linkStatus: string | null } = { prelogin: null, linkStatus: null };

function rewrite(path: string, body: Buffer, requestBody: Buffer): Buffer {
  if (swap.prelogin !== null && path === '/api/auth/prelogin') {
    const { username } = JSON.parse(requestBody.toString('utf8')) as { username: string };
    return Buffer.from(JSON.stringify({ kdf_params: typeof swap.prelogin === 'string' ? swap.prelogin : swap.prelogin(username) }));
  }
  if (swap.linkStatus !== null && /^\/api\/download\/[^/]+\/status$/.test(path)) {
    return Buffer.from(JSON.stringify({ ...(JSON.parse(body.toString('utf8')) as object), kdf_params: swap.linkStatus }));
  }
  return body;
}

let proxy: http.Server;

test.beforeAll(async () => {
  proxy = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const headers = { ...incoming.headers, host: new URL(E2E_BASE_URL).host };
      delete headers['accept-encoding'];
      const upstream = http.request(`${E2E_BASE_URL}${incoming.url}`, { method: incoming.method, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          const body = answer.statusCode === 200 ? rewrite(new URL(incoming.url!, PROXY_URL).pathname, Buffer.concat(parts), Buffer.concat(chunks)) : Buffer.concat(parts);
          const answerHeaders = { ...answer.headers, 'content-length': String(body.length) };
          delete answerHeaders['transfer-encoding'];
          delete answerHeaders.etag;
          outgoing.writeHead(answer.statusCode ?? 502, answerHeaders).end(body);
        });
      });
      upstream.on('error', () => outgoing.writeHead(502).end());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(PROXY_PORT, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

test.afterEach(() => {
  swap.prelogin = null;
  swap.linkStatus = null;
});

const apiPosts = (requests: Request[]) => requests.filter((request) => request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/'));

test('a weak pre-login block: nothing is derived, no secret is sent, the sign-in says why', async ({ browser }) => {
  const admin = await createAdmin('hostile-kdf');
  swap.prelogin = WEAK_ARGON2;
  const context = await browser.newContext({ baseURL: PROXY_URL });
  const requests: Request[] = [];
  context.on('request', (request) => requests.push(request));
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText(text('en', 'signIn.kdf.refused')).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(apiPosts(requests).map((request) => new URL(request.url()).pathname)).toEqual(['/api/auth/prelogin']);
  for (const request of requests) expect(request.postData() ?? '').not.toContain(admin.password);
  await context.close();
});

test('a password link whose block the server swapped: refused before the password is used, no verifier sent', async ({ browser }) => {
  const password = `link-${randomBytes(6).toString('hex')}`;
  const { url } = await linkWithFiles(browser, [{ name: 'vertraulich.txt', content: randomBytes(500) }], { password });
  const pinned = url.replace(E2E_BASE_URL, PROXY_URL);
  for (const block of [WEAK_ARGON2, SCHEME1]) {
    swap.linkStatus = block;
    const context = await browser.newContext();
    const requests: Request[] = [];
    context.on('request', (request) => requests.push(request));
    const page = await context.newPage();
    await page.goto(pinned);
    await expect(page.getByText(text('en', 'recipient.password.kdfRefused'))).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
    expect(apiPosts(requests)).toEqual([]);
    await context.close();
  }

  // The same link through the honest server opens with its password, without the older-protection note.
  swap.linkStatus = null;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(pinned);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Unlock Files' }).click();
  await expect(page.getByText(text('en', 'recipient.ready.filesReady'))).toBeVisible();
  await expect(page.getByText(text('en', 'recipient.password.olderProtection'))).toHaveCount(0);
  await context.close();
});

test('a password link made before pins (no fragment) still opens, with the older-protection note; a weak block for it is refused', async ({ browser }) => {
  const password = `link-${randomBytes(6).toString('hex')}`;
  const { url } = await linkWithFiles(browser, [{ name: 'alt.txt', content: randomBytes(300) }], { password });
  const unpinned = url.replace(E2E_BASE_URL, PROXY_URL).replace(/#.*/, '');

  swap.linkStatus = WEAK_ARGON2;
  const refusedContext = await browser.newContext();
  const refusedPage = await refusedContext.newPage();
  await refusedPage.goto(unpinned);
  await expect(refusedPage.getByText(text('en', 'recipient.password.kdfRefused'))).toBeVisible();
  await refusedContext.close();

  swap.linkStatus = null;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(unpinned);
  await expect(page.getByText(text('en', 'recipient.password.olderProtection'))).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Unlock Files' }).click();
  await expect(page.getByText(text('en', 'recipient.ready.filesReady'))).toBeVisible();
  await context.close();
});

test('a salt shared across names: bound blocks give each name its own secret; a block bound to another name, or unbound after a bound one, is refused', async ({ browser }) => {
  const sharedSalt = Buffer.alloc(16, 0x5a);
  const password = `shared-${randomBytes(6).toString('hex')}`;
  const names = [`alice-${randomBytes(3).toString('hex')}`, `bob-${randomBytes(3).toString('hex')}`];
  const context = await browser.newContext({ baseURL: PROXY_URL });
  const requests: Request[] = [];
  context.on('request', (request) => requests.push(request));
  const page = await context.newPage();

  async function attempt(username: string) {
    await page.goto('/login');
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  }
  const tokenForms = () =>
    requests
      .filter((request) => new URL(request.url()).pathname === '/api/auth/token')
      .map((request) => Object.fromEntries(new URLSearchParams(request.postData() ?? '')));

  // The proxy hands both names the same server salt, each in a block bound to the name: the
  // secrets the browser sends differ, so one table of guesses does not serve both accounts.
  swap.prelogin = (username) => newBoundArgon2Block(username, sharedSalt);
  for (const name of names) {
    await attempt(name);
    await expect.poll(() => tokenForms().filter((form) => form.username === name).length, { timeout: 60_000 }).toBe(1);
    await expect(page.getByText('Incorrect username or password.').first()).toBeVisible();
  }
  const secrets = tokenForms().map((form) => form.auth_secret);
  expect(secrets).toHaveLength(2);
  expect(secrets[0]).not.toBe(secrets[1]);

  // A block bound to the first name handed to the second: refused before any derivation.
  const sent = requests.length;
  swap.prelogin = () => newBoundArgon2Block(names[0]!, sharedSalt);
  await attempt(names[1]!);
  await expect(page.getByText(text('en', 'signIn.kdf.nameRefused')).first()).toBeVisible();
  expect(apiPosts(requests.slice(sent)).map((request) => new URL(request.url()).pathname)).toEqual(['/api/auth/prelogin']);

  // An unbound block (the same salt for any name) for a name this browser saw bound: refused too.
  const sentBefore = requests.length;
  swap.prelogin = newArgon2Block(sharedSalt);
  await attempt(names[0]!);
  await expect(page.getByText(text('en', 'signIn.kdf.nameRefused')).first()).toBeVisible();
  expect(apiPosts(requests.slice(sentBefore)).map((request) => new URL(request.url()).pathname)).toEqual(['/api/auth/prelogin']);
  for (const request of requests) expect(request.postData() ?? '').not.toContain(password);
  await context.close();
});
