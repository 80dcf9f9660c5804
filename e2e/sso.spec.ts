// Single sign-on in a real browser against the real server and a real OpenID provider on loopback
// (tests/support/oidc-provider.ts: oidc-provider): one person signs in by SSO in two browsers,
// makes their keys in the first, approves the second from the first by comparing the five words,
// and both decrypt the same file byte-identical; a device removed in the profile cannot unlock
// any more; sign-out ends the provider's session too.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startTestProvider, type TestProvider } from '../tests/support/oidc-provider.ts';
import { expectAccessible } from './support/axe.ts';
import { shot } from './support/screenshots.ts';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { sha256 } from './support/files-seed.ts';
import { ServerProcess } from './support/server-process.ts';
import { E2E_PORT } from './support/environment.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PORT = Number(process.env.SSO_E2E_PORT ?? E2E_PORT + 90);
const PROVIDER_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.join(ROOT, `.tmp/sso-e2e-${PORT}`);
test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ServerProcess;
let provider: TestProvider;

test.beforeAll(async () => {
  provider = await startTestProvider({
    port: PROVIDER_PORT,
    clientId: 'sealdrop-e2e',
    clientSecret: 'sso-e2e-secret',
    redirectUris: [`${BASE}/api/auth/sso/callback`],
    postLogoutRedirectUris: [`${BASE}/login`],
    users: { dana: { email: 'dana@staff.example', name: 'Dana', groups: ['staff'] } },
  });
  server = new ServerProcess({
    port: PORT,
    dataDir: DATA_DIR,
    env: {
      PUBLIC_URL: BASE,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'sealdrop-e2e',
      OIDC_CLIENT_SECRET: 'sso-e2e-secret',
      OIDC_NAME: 'Example Staff',
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_ALLOWED_GROUPS: 'staff',
      RATE_LIMIT_PRELOGIN_PER_IP: '1000000',
    },
  });
  await server.start();
});
test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

/** Signs in as `login` through the sign-in page and the provider's page; lands on /sso. */
async function signInBySso(page: Page, login: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Example Staff' }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${BASE}/sso`);
  await expect(page.getByRole('heading', { name: 'Your encryption keys' })).toBeVisible();
}

/** A browser of its own; downloads as a browser without File System Access makes them (download events). */
async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE });
  await withoutFileSystemAccess(context);
  return context.newPage();
}

async function csrf(page: Page): Promise<Record<string, string>> {
  return { 'x-csrftoken': (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '' };
}

/** A file encrypted in the browser for dana's key: uploaded through the folder's upload page. */
async function uploadThroughLink(browser: Browser, linkToken: string, name: string, content: Buffer): Promise<void> {
  const uploader = await newPage(browser);
  const dir = fs.mkdtempSync(path.join(ROOT, '.tmp/sso-upload-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  await uploader.goto(`/upload/${linkToken}`);
  await uploader.getByTestId('file-input').setInputFiles(file);
  await uploader.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(uploader.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 60_000 });
  await uploader.context().close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Opens the folder (a fresh page load: the key is locked again, and the first Download goes to
 * /sso, which unlocks with this browser's copy and comes back), then downloads `name`.
 */
async function downloadedBytes(page: Page, folderId: number, name: string): Promise<Buffer> {
  await page.goto(`/folders/view/${folderId}`);
  await page.getByRole('button', { name: `Download ${name}` }).click();
  await page.waitForURL(`${BASE}/sso?next=${encodeURIComponent(`/folders/view/${folderId}`)}`);
  await page.waitForURL(`${BASE}/folders/view/${folderId}`);
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: `Download ${name}` }).click();
  return fs.readFileSync(await (await started).path());
}

test('one person, two browsers: keys made in the first, the second approved by the five words, the same file decrypted in both', async ({ browser }) => {
  const first = await newPage(browser);
  await signInBySso(first, 'dana');
  await expectAccessible(first, 'sso setup');
  await shot(first, 'setup');
  await first.getByRole('button', { name: 'Create my keys' }).click();
  await expect(first.getByTestId('recovery-key')).toBeVisible();
  await expectAccessible(first, 'sso recovery key');
  await shot(first, 'recovery-key');
  const recoveryKey = (await first.getByTestId('recovery-key').textContent())!.trim();
  expect(recoveryKey).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){7}$/);
  await expect(first.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await first.getByLabel('I have stored my recovery key').check();
  await first.getByRole('button', { name: 'Continue' }).click();
  await expect(first).toHaveURL(`${BASE}/dashboard`);

  // A folder of dana's and a file an uploader encrypted in the browser for dana's key.
  const folder = (await (await first.request.post('/api/folders/', { data: { title: 'SSO files', perform_mime_check: false }, headers: await csrf(first) })).json()) as { id: number; link_token: string };
  const content = randomBytes(300_000);
  await uploadThroughLink(browser, folder.link_token, 'report.bin', content);
  expect(sha256(await downloadedBytes(first, folder.id, 'report.bin'))).toBe(sha256(content));

  // The second browser: signed in, but it holds no key; it asks for an approval.
  const second = await newPage(browser);
  await signInBySso(second, 'dana');
  await expect(second.getByText('This device does not hold your key yet.', { exact: false })).toBeVisible();
  await second.getByRole('button', { name: 'Approve from another device' }).click();
  const phrase = (await second.getByTestId('approval-phrase').textContent())!.trim();
  await expectAccessible(second, 'sso waiting for approval');
  await shot(second, 'waiting-for-approval');
  expect(phrase.split(' ')).toHaveLength(5);

  // The first browser shows the same words for the request, and approves it.
  await first.goto('/profile');
  const request = first.getByTestId('approval-request-phrase');
  await expect(request).toHaveText(phrase, { timeout: 15_000 });
  await expectAccessible(first, 'profile with an approval request');
  await shot(first, 'profile-approval');
  await first.getByRole('button', { name: 'The words match: approve' }).click();
  await expect(first.getByText('Approved. The other device now holds your key.')).toBeVisible();

  await expect(second).toHaveURL(`${BASE}/dashboard`, { timeout: 20_000 });
  expect(sha256(await downloadedBytes(second, folder.id, 'report.bin'))).toBe(sha256(content));

  // The second browser is trusted now: after a reload it unlocks by itself.
  await second.goto('/sso');
  await expect(second).toHaveURL(`${BASE}/dashboard`);

  // Removed in the first browser's profile, it cannot unlock any more.
  await first.goto('/profile');
  const devices = first.getByRole('list', { name: 'Devices' });
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  const other = devices.getByRole('listitem').filter({ hasNotText: '(this device)' });
  await other.getByRole('button', { name: /^Remove / }).click();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await second.goto('/sso');
  await expect(second.getByText('This device does not hold your key yet.', { exact: false })).toBeVisible();

  // The recovery key unlocks it again (and trusts it anew).
  await second.getByLabel('Recovery key').fill(recoveryKey.toLowerCase().replaceAll('-', ' '));
  await second.getByRole('button', { name: 'Unlock with recovery key' }).click();
  await expect(second).toHaveURL(`${BASE}/dashboard`, { timeout: 20_000 });
  expect(sha256(await downloadedBytes(second, folder.id, 'report.bin'))).toBe(sha256(content));

  // Sign-out ends the provider's session as well: the next sign-in asks for the name again.
  const ended = provider.endSessionSeen();
  await first.goto('/dashboard');
  await first.getByRole('button', { name: 'Logout' }).click();
  await expect(first).toHaveURL(new RegExp(`^${provider.issuer}/session/end`));
  expect(provider.endSessionSeen()).toBeGreaterThan(ended);
});

test('a refused sign-in comes back to the sign-in page with its reason', async ({ page }) => {
  provider.setUser('outsider', { email: 'outsider@elsewhere.example', groups: [] });
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Example Staff' }).click();
  await page.getByLabel('Username').fill('outsider');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${BASE}/login?sso_error=SSO_NOT_ALLOWED`);
  await expect(page.getByText('Your organisation account may not use this server. Ask an administrator for an invitation.')).toBeVisible();
  await shot(page, 'login-refused');
});
