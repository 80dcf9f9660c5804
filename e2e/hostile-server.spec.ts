/**
 * A hostile server stand-in: a small proxy (node http, on this run's port + 1) in front of the real
 * e2e server passes everything through until it turns hostile, and then answers as a compromised
 * server or a TLS-terminating proxy would to collect a password: the pre-login makes the account
 * look like one of the old scheme (a fresh block instead of the account's) and the secret step
 * answers SIGN_IN_UPGRADE_REQUIRED. Every request the browser sends is recorded (at the proxy and
 * in Chromium) and searched for the password.
 *
 * After one normal sign-in on the device, the browser refuses that answer with a clear error and
 * sends nothing; on a device that has never signed in to the account, it asks before anything is
 * sent, and a Cancel sends nothing either.
 */
import http from 'node:http';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { newBoundArgon2Block } from '../server/crypto/index.ts';
import { createAdmin } from './support/admin.ts';
import { E2E_BASE_URL, SPEC_PORTS } from './support/environment.mjs';
import { forwardUpstream, readBody } from './support/forwardingProxy.ts';

const PROXY_PORT = SPEC_PORTS.hostileServerProxy;
const PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;

interface Seen {
  method: string;
  url: string;
  body: string;
}

/** Requests as the proxy received them, and as Chromium sent them. */
const atProxy: Seen[] = [];
const fromBrowser: Seen[] = [];
let hostile = false;

function answerJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const proxy = http.createServer(async (request, response) => {
  const body = await readBody(request);
  atProxy.push({ method: request.method ?? '', url: request.url ?? '', body: body.toString('utf8') });
  if (hostile && request.method === 'POST' && request.url === '/api/auth/prelogin') {
    // A believable block of the default cost, bound to the typed name, not the account's: the secret derived under it is worthless.
    const { username } = JSON.parse(body.toString('utf8')) as { username: string };
    return answerJson(response, 200, { kdf_params: newBoundArgon2Block(username) });
  }
  if (hostile && request.method === 'POST' && request.url === '/api/auth/token') {
    return answerJson(response, 401, { detail: 'This account signs in with its password once more, to move to the new sign-in', code: 'SIGN_IN_UPGRADE_REQUIRED' });
  }
  const upstream = await forwardUpstream(E2E_BASE_URL, request, body);
  response.writeHead(upstream.status, upstream.headers);
  response.end(upstream.body);
});

test.beforeAll(async () => {
  await new Promise<void>((resolve) => proxy.listen(PROXY_PORT, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

async function recordedPage(context: BrowserContext): Promise<Page> {
  context.on('request', (request) => fromBrowser.push({ method: request.method(), url: request.url(), body: request.postDataBuffer()?.toString('utf8') ?? '' }));
  return context.newPage();
}

/** Every request, at the proxy or from the browser, that carries `secret` as typed, URL- or JSON-encoded. */
function carrying(secret: string): Seen[] {
  const forms = [secret, encodeURIComponent(secret), new URLSearchParams({ x: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)];
  return [...atProxy, ...fromBrowser].filter((seen) => forms.some((form) => seen.url.includes(form) || seen.body.includes(form)));
}

async function submitSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${PROXY_URL}/login`);
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('a server that claims the account needs its password once more gets no password', async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await createAdmin('hostile');

  // One normal sign-in on this device, through the proxy while it still passes everything on.
  const context = await browser.newContext();
  const page = await recordedPage(context);
  await submitSignIn(page, admin.username, admin.password);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible({ timeout: 60_000 });
  expect(carrying(admin.password)).toEqual([]);

  // The session ends (cookies gone); the device keeps only its note that this name signs in with its secret.
  await context.clearCookies();
  hostile = true;
  await submitSignIn(page, admin.username, admin.password);
  const main = page.getByRole('main');
  await expect(main.getByRole('alert')).toContainText('this account already uses the new sign-in on this device. Nothing was sent.', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Send my password once' })).toHaveCount(0);
  const tokenCalls = atProxy.filter((seen) => seen.url === '/api/auth/token');
  expect(tokenCalls.length).toBeGreaterThanOrEqual(2);
  expect(tokenCalls.every((seen) => !new URLSearchParams(seen.body).has('password'))).toBe(true);
  expect(carrying(admin.password)).toEqual([]);
  await context.close();

  // A device that never signed in to this account: the page asks first; Cancel sends nothing.
  const fresh = await browser.newContext();
  const freshPage = await recordedPage(fresh);
  await submitSignIn(freshPage, admin.username, admin.password);
  const question = freshPage.getByRole('alertdialog', { name: 'Send your password?' });
  await expect(question).toContainText('This account still uses the old sign-in.', { timeout: 60_000 });
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toHaveCount(0);
  expect(carrying(admin.password)).toEqual([]);
  await fresh.close();
});
