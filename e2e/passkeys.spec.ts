// Passkeys in Chromium, driven through the DevTools protocol's virtual authenticator (WebAuthn
// domain: resident keys, user verification, with and without PRF). Against a server of its own at
// http://localhost:<port> without PUBLIC_URL: WebAuthn takes no IP address as RP ID, and the
// server names the relying party from a loopback name only (docs/api.md "Passkeys").
//
// With PRF: register in the profile (confirmed with the password), sign out, sign in with the
// passkey alone, download a file uploaded through the folder's link: decrypted without any
// password prompt, byte-identical; remove the passkey and see the next passkey sign-in refused.
// Without PRF: the passkey signs in, the page says why the keys stay locked, and the download asks
// for the password. Where window.PublicKeyCredential is missing, nothing of passkeys shows.
// Accessibility (axe, 0 serious) and screenshots of the new screens at 1280 and 390 px.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { encryptBuffer } from '../server/crypto/file-format.ts';
import { generateRsaKeyPair, wrapFileKey, wrapPrivateKey } from '../server/crypto/keys.ts';
import { createAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { sha256 } from './support/files-seed.ts';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { expectNoSidewaysScrolling } from './support/layout.ts';
import { ServerProcess } from './support/server-process.ts';
import { addAuthenticator, virtualAuthenticator } from './support/virtualAuthenticator.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PORT = Number(process.env.PASSKEYS_E2E_PORT ?? Number(process.env.E2E_PORT ?? 8181) + 80);
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = path.join(ROOT, `.tmp/passkeys-e2e-${PORT}`);
// Outside test-results/, which Playwright empties at every run.
const SHOTS_DIR = path.join(ROOT, '.tmp/passkeys-shots');

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ServerProcess;

test.beforeAll(async () => {
  server = new ServerProcess({ port: PORT, dataDir: DATA_DIR, env: { RATE_LIMIT_PRELOGIN_PER_IP: '1000000' } });
  await server.start();
});
test.afterAll(async () => {
  await server?.stop();
});

interface Account {
  username: string;
  password: string;
}

async function createAdmin(): Promise<Account> {
  const account = { username: `passkey-${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(9).toString('base64url')}` };
  await createAccount(DATA_DIR, account);
  return account;
}

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}

async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const csrf = (await page.context().cookies(BASE)).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  return { 'x-csrftoken': csrf };
}

async function signInWithPassword(page: Page, account: Account, base = BASE): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function signOut(page: Page, base = BASE): Promise<void> {
  await page.goto(`${base}/dashboard`);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** A key pair for the signed-in admin, a folder, and one file uploaded anonymously through its link (node:crypto encrypts). */
async function seedFile(page: Page, account: Account): Promise<{ folderId: number; name: string; content: Buffer }> {
  const headers = await csrfHeaders(page);
  const pair = generateRsaKeyPair();
  expect((await page.request.put('/api/auth/public-key', { data: { public_key_spki: pair.publicKeySpki }, headers })).status()).toBe(200);
  expect((await page.request.put('/api/auth/users/me/encrypted-key', { data: wrapPrivateKey(pair.privateKey, account.password), headers })).status()).toBe(200);
  const folderAnswer = await page.request.post('/api/folders/', { data: { title: 'Client files', perform_mime_check: false }, headers });
  expect(folderAnswer.status()).toBe(201);
  const folder = (await folderAnswer.json()) as { id: number; link_token: string };

  const content = randomBytes(700_000);
  const name = 'contract.pdf';
  const status = await fetch(`${BASE}/api/upload/${folder.link_token}/status`);
  const csrf = /csrftoken=([^;]+)/.exec(status.headers.getSetCookie().join('; '))?.[1] ?? '';
  const rawKey = randomBytes(32);
  const iv = randomBytes(12);
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(encryptBuffer(rawKey, iv, content))]), name);
  form.append('encrypted_keys', wrapFileKey(pair.publicKeySpki, rawKey));
  form.append('encryption_ivs', iv.toString('base64'));
  form.append('relative_paths', '.');
  form.append('file_hashes', sha256(content));
  form.append('file_sizes', String(content.length));
  const upload = await fetch(`${BASE}/api/upload/${folder.link_token}`, { method: 'POST', body: form, headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf } });
  expect(upload.status).toBe(200);
  return { folderId: folder.id, name, content };
}

async function addPasskey(page: Page, account: Account, name: string, base = BASE): Promise<void> {
  await page.goto(`${base}/profile`);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByRole('button', { name: 'Add a Passkey' })).toBeVisible();
  await section.getByRole('button', { name: 'Add a Passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a Passkey' });
  await dialog.getByLabel('Passkey name').fill(name);
  await dialog.getByLabel('Login password').fill(account.password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

async function signInWithPasskey(page: Page, base = BASE): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** From the dashboard, in the app (a reload would drop the key unlocked in memory), to the folder and its file. */
async function download(page: Page, folderId: number, name: string, password?: string): Promise<Buffer> {
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.locator(`[data-folder-id="${folderId}"]`).getByRole('link', { name: 'Client files' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/folders/view/${folderId}$`));
  const table = page.getByRole('table', { name: 'Files' });
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await table.getByRole('button', { name: `Download ${name}` }).click();
  const unlockDialog = page.getByRole('dialog', { name: 'Login Password Required' });
  if (password) {
    await expect(unlockDialog).toBeVisible();
    await unlockDialog.getByLabel('Login Password').fill(password);
    await unlockDialog.getByRole('button', { name: 'Unlock' }).click();
    await unlockDialog.getByRole('button', { name: 'Continue' }).click();
  }
  const saved = await started;
  // No password was asked for when none was given.
  if (!password) await expect(unlockDialog).toHaveCount(0);
  return fs.readFileSync(await saved.path());
}

test('a passkey with PRF signs in alone, unlocks the keys for a byte-identical download, and is refused once removed', async ({ page }) => {
  await withoutFileSystemAccess(page);
  const { cdp, id } = await virtualAuthenticator(page, { hasPrf: true });
  const account = await createAdmin();
  await signInWithPassword(page, account);
  const file = await seedFile(page, account);

  await addPasskey(page, account, 'Office laptop');
  const section = page.getByRole('region', { name: 'Passkeys' });
  const item = section.getByRole('listitem').filter({ hasText: 'Office laptop' });
  await expect(item).toContainText('Unlocks keys');
  await expect(item).toContainText('never used');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: id });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  await signOut(page);
  await signInWithPasskey(page);
  await expect(page.getByText('Signed in with your passkey; your encryption keys are unlocked.')).toBeVisible();
  const bytes = await download(page, file.folderId, file.name);
  expect(bytes.length).toBe(file.content.length);
  expect(bytes.equals(file.content)).toBe(true);

  // Remove it (confirmed with the password), then it no longer signs in.
  await page.goto('/profile');
  await expect(item).toContainText('last used');
  await item.getByRole('button', { name: 'Remove Office laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove passkey' });
  await dialog.getByLabel('Login password').fill(account.password);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(section.getByText('No passkeys yet.')).toBeVisible();

  await signOut(page);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  // Inline and as a notification.
  await expect(page.getByRole('alert').filter({ hasText: 'Passkey not found' }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('a passkey without PRF signs in, says why the keys stay locked, and the download asks for the password', async ({ page }) => {
  await withoutFileSystemAccess(page);
  await virtualAuthenticator(page, { hasPrf: false });
  const account = await createAdmin();
  await signInWithPassword(page, account);
  const file = await seedFile(page, account);

  await addPasskey(page, account, 'Old security key');
  const item = page.getByRole('region', { name: 'Passkeys' }).getByRole('listitem').filter({ hasText: 'Old security key' });
  await expect(item).toContainText('Sign-in only');

  await signOut(page);
  await signInWithPasskey(page);
  await expect(page.getByText(/Signed in with your passkey\. It cannot unlock your encryption keys/)).toBeVisible();
  const bytes = await download(page, file.folderId, file.name, account.password);
  expect(bytes.equals(file.content)).toBe(true);
});

test('the new screens pass axe at 1280 and 390 px, and a second passkey can be confirmed with the first', async ({ page }) => {
  const { cdp, id: first } = await virtualAuthenticator(page, { hasPrf: true });
  const account = await createAdmin();
  await signInWithPassword(page, account);
  await seedFile(page, account);
  await addPasskey(page, account, 'Phone');

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Passkeys' });
    await expect(section.getByText('Phone')).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await expectAccessible(page, `profile-passkeys-${width}`);
    await expectNoSidewaysScrolling(page, `profile passkeys ${width}`);
    await shot(page, 'profile-passkeys');
    await section.getByRole('button', { name: 'Add a Passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a Passkey' });
    await expect(dialog.getByRole('button', { name: 'Use an existing passkey' })).toBeVisible();
    await expectAccessible(page, `passkey-add-dialog-${width}`);
    await shot(page, 'passkey-add-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Rename Phone' }).click();
    await expectAccessible(page, `passkey-rename-dialog-${width}`);
    await shot(page, 'passkey-rename-dialog');
    await page.getByRole('dialog', { name: 'Rename passkey' }).getByRole('button', { name: 'Cancel' }).click();
  }

  // A second passkey, confirmed with the first (no password): it gets a copy of the key too, made
  // from the first passkey's copy. One authenticator holds one passkey per account (the options
  // exclude the first), so the second lives on another: the first is unplugged once it has answered.
  await page.setViewportSize({ width: 1280, height: 900 });
  const second = await addAuthenticator(cdp, { hasPrf: true, transport: 'usb' });
  cdp.on('WebAuthn.credentialAsserted', (event) => {
    if (event.authenticatorId === first) void cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first });
  });
  await page.getByRole('button', { name: 'Add a Passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a Passkey' });
  await dialog.getByLabel('Passkey name').fill('Tablet');
  await dialog.getByRole('button', { name: 'Use an existing passkey' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('listitem').filter({ hasText: 'Tablet' })).toContainText('Unlocks keys');
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId: second })).credentials).toHaveLength(1);

  await signOut(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
    await expectAccessible(page, `login-passkey-${width}`);
    await expectNoSidewaysScrolling(page, `login passkey ${width}`);
    await shot(page, 'login-passkey');
  }
});

test('where the browser has no WebAuthn, the passkey options are hidden and the password path is unchanged', async ({ page }) => {
  await page.addInitScript(() => {
    // @ts-expect-error: a browser without WebAuthn
    delete window.PublicKeyCredential;
  });
  const account = await createAdmin();
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
  await signInWithPassword(page, account);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Passkeys' })).toHaveCount(0);
});

// A hostile server: a loopback proxy in front of the real one (it passes the Host on, so the relying
// party is the proxy's origin) that keeps the copies it sees at registration and, once hostile,
// answers a passkey sign-in with another of the account's passkeys' copies. The browser opens a
// copy only with the credential id it used itself: it refuses, says why, and the download asks for
// the password. Every request body is recorded: none carries a PRF output.
test('a server that answers another passkey\'s copy of the key is refused by the browser; no PRF output is ever sent', async ({ page }) => {
  const proxyPort = PORT + 1;
  const proxyBase = `http://localhost:${proxyPort}`;
  const copies = new Map<string, string>();
  const bodies: string[] = [];
  let hostile = false;
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString('utf8'));
      if (request.method === 'POST' && request.url === '/api/auth/passkeys' && body.length > 0) {
        const sent = JSON.parse(body.toString('utf8')) as { name: string; wrapped_private_key?: { encryptedPrivateKey: string } };
        if (sent.wrapped_private_key) copies.set(sent.name, sent.wrapped_private_key.encryptedPrivateKey);
      }
      const swap = hostile && request.method === 'POST' && request.url === '/api/auth/passkeys/sign-in';
      const headers = { ...request.headers };
      delete headers['accept-encoding'];
      const upstream = http.request({ host: '127.0.0.1', port: PORT, method: request.method, path: request.url, headers }, (answer) => {
        if (!swap) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        const answered: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => answered.push(chunk));
        answer.on('end', () => {
          const signedIn = JSON.parse(Buffer.concat(answered).toString('utf8')) as { wrapped_private_key: { encryptedPrivateKey: string } | null };
          if (signedIn.wrapped_private_key) signedIn.wrapped_private_key.encryptedPrivateKey = copies.get('Spare key')!;
          const text = JSON.stringify(signedIn);
          const { 'content-length': _length, ...rest } = answer.headers;
          response.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': Buffer.byteLength(text) });
          response.end(text);
        });
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  try {
    await withoutFileSystemAccess(page);
    const account = await createAdmin();
    await signInWithPassword(page, account, proxyBase);
    const file = await seedFile(page, account);
    // "Spare key" on one authenticator, "Daily key" on another (one authenticator holds one passkey per account).
    const spare = await virtualAuthenticator(page, { hasPrf: true });
    await addPasskey(page, account, 'Spare key', proxyBase);
    await expect(page.getByRole('listitem').filter({ hasText: 'Spare key' })).toContainText('Unlocks keys');
    await spare.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: spare.id });
    await virtualAuthenticator(page, { hasPrf: true });
    await addPasskey(page, account, 'Daily key', proxyBase);
    await expect(page.getByRole('listitem').filter({ hasText: 'Daily key' })).toContainText('Unlocks keys');
    expect([...copies.keys()].sort()).toEqual(['Daily key', 'Spare key']);

    await signOut(page, proxyBase);
    hostile = true;
    await signInWithPasskey(page, proxyBase);
    await expect(page.getByText(/could not be unlocked with it: The server answered a key copy that does not belong to this passkey/).first()).toBeVisible();
    const bytes = await download(page, file.folderId, file.name, account.password);
    expect(bytes.equals(file.content)).toBe(true);

    // What was sent: assertions and attestations, never a PRF result.
    const webauthnBodies = bodies.filter((body) => body.includes('clientExtensionResults'));
    expect(webauthnBodies.length).toBeGreaterThanOrEqual(3);
    for (const body of webauthnBodies) expect(body).not.toMatch(/"results"/);
  } finally {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  }
});
