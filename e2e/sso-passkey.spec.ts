// A passkey with PRF unlocks the keys of an account made by single sign-on (issue 44), in Chromium
// against the real server and a real OpenID provider on loopback (tests/support/oidc-provider.ts),
// with the DevTools protocol's virtual authenticator. At http://localhost:<port>: WebAuthn takes
// no IP address as relying party.
//
// One person signs in by single sign-on, makes their keys, adds a passkey in the profile without
// any password (the sign-in just happened); the same tab then becomes a new browser (every cookie
// and all of the origin's storage cleared: no trusted-device copy left, its virtual authenticator
// kept), signs in by single sign-on, and /sso offers the passkey first: it unlocks, the browser
// is trusted, and a file uploaded to the account decrypts byte-identical. "Sign in again with
// <provider>" in the passkey confirmation goes to the provider and back to the profile.
//
// A second browser context gets the same credential over CDP (WebAuthn.getCredentials /
// addCredential). Chromium's virtual authenticator exports no PRF secret with a credential (a
// copied credential answers no PRF output: measured), so that browser shows the other case the
// page must handle: a passkey that cannot unlock says so, and the approval and recovery key stay.
// Its passkey sign-in on /login is refused with the provider's reason. axe on each new state.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { startTestProvider, type TestProvider } from '../tests/support/oidc-provider.ts';
import { expectAccessible } from './support/axe.ts';
import { shot } from './support/screenshots.ts';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { sha256 } from './support/files-seed.ts';
import { ServerProcess } from './support/server-process.ts';
import { E2E_PORT } from './support/environment.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PORT = Number(process.env.SSO_PASSKEY_E2E_PORT ?? E2E_PORT + 110);
const PROVIDER_PORT = PORT + 1;
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = path.join(ROOT, `.tmp/sso-passkey-e2e-${PORT}`);

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ServerProcess;
let provider: TestProvider;

test.beforeAll(async () => {
  provider = await startTestProvider({
    port: PROVIDER_PORT,
    clientId: 'sealdrop-e2e',
    clientSecret: 'sso-passkey-e2e-secret',
    redirectUris: [`${BASE}/api/auth/sso/callback`],
    postLogoutRedirectUris: [`${BASE}/login`],
    users: { erin: { email: 'erin@staff.example', name: 'Erin', groups: ['staff'] } },
  });
  server = new ServerProcess({
    port: PORT,
    dataDir: DATA_DIR,
    env: {
      PUBLIC_URL: BASE,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'sealdrop-e2e',
      OIDC_CLIENT_SECRET: 'sso-passkey-e2e-secret',
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

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: BASE });
  await withoutFileSystemAccess(context);
  return context;
}

/** A virtual authenticator on this page: platform-like, resident keys, user verified, with PRF. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

/** Signs in as `login` through the sign-in page and the provider's page; lands on /sso (or `landing`). */
async function signInBySso(page: Page, login: string, landing = `${BASE}/sso`): Promise<void> {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Example Staff' }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(landing);
}

async function csrf(page: Page): Promise<Record<string, string>> {
  return { 'x-csrftoken': (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '' };
}

async function uploadThroughLink(browser: Browser, linkToken: string, name: string, content: Buffer): Promise<void> {
  const context = await newContext(browser);
  const uploader = await context.newPage();
  const dir = fs.mkdtempSync(path.join(ROOT, '.tmp/sso-passkey-upload-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  await uploader.goto(`/upload/${linkToken}`);
  await uploader.getByTestId('file-input').setInputFiles(file);
  await uploader.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(uploader.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 60_000 });
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The folder opened afresh (the key locked: the first Download goes through /sso and back), then `name` downloaded. */
async function downloadedBytes(page: Page, folderId: number, name: string): Promise<Buffer> {
  await page.goto(`/folders/view/${folderId}`);
  await page.getByRole('button', { name: `Download ${name}` }).click();
  await page.waitForURL(`${BASE}/sso?next=${encodeURIComponent(`/folders/view/${folderId}`)}`);
  await page.waitForURL(`${BASE}/folders/view/${folderId}`, { timeout: 20_000 });
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: `Download ${name}` }).click();
  return fs.readFileSync(await (await started).path());
}

test('a passkey added without a password unlocks the keys on a new browser after single sign-on; its sign-in is refused', async ({ browser }) => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto('/login');
  const authenticator = await virtualAuthenticator(page);

  // Keys made after the first single sign-on.
  await signInBySso(page, 'erin');
  await page.getByRole('button', { name: 'Create my keys' }).click();
  await expect(page.getByTestId('recovery-key')).toBeVisible();
  await page.getByLabel('I have stored my recovery key').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(`${BASE}/dashboard`);

  // The profile offers passkeys; the sign-in just happened, so Continue needs no password.
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('After you sign in with Example Staff, a passkey', { exact: false })).toBeVisible();
  // The page was loaded afresh: the key is locked, so Add goes through /sso (this browser's copy) and back.
  await section.getByRole('button', { name: 'Add a Passkey' }).click();
  await expect(page).toHaveURL(`${BASE}/profile`, { timeout: 20_000 });
  await section.getByRole('button', { name: 'Add a Passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a Passkey' });
  await expect(dialog.getByLabel('Login password')).toHaveCount(0);
  await expect(dialog.getByRole('link', { name: 'Sign in again with Example Staff' })).toHaveAttribute('href', '/api/auth/sso/start?next=%2Fprofile');
  await expectAccessible(page, 'sso passkey confirmation');
  await shot(page, 'sso-passkey-confirmation');
  await dialog.getByLabel('Passkey name').fill('Laptop');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(section.getByRole('listitem').filter({ hasText: 'Laptop' }).getByText('Unlocks keys')).toBeVisible();

  // A folder of erin's and a file an uploader encrypted in the browser for erin's key.
  const folder = (await (await page.request.post('/api/folders/', { data: { title: 'Passkey files', perform_mime_check: false }, headers: await csrf(page) })).json()) as {
    id: number;
    link_token: string;
  };
  const content = randomBytes(200_000);
  await uploadThroughLink(browser, folder.link_token, 'minutes.bin', content);

  // The same tab as a new browser: no cookie, no device copy in IndexedDB; the authenticator stays.
  await context.clearCookies();
  await authenticator.cdp.send('Storage.clearDataForOrigin', { origin: BASE, storageTypes: 'all' });
  await signInBySso(page, 'erin');
  await expect(page.getByText('Unlock it with your passkey', { exact: false })).toBeVisible();
  const unlock = page.getByRole('button', { name: 'Unlock with a passkey' });
  await expect(unlock).toBeVisible();
  await expectAccessible(page, 'sso locked with a passkey');
  await shot(page, 'sso-locked-with-a-passkey');
  // Offered above the approval and the recovery key.
  const unlockBox = (await unlock.boundingBox())!;
  expect(unlockBox.y).toBeLessThan((await page.getByRole('button', { name: 'Approve from another device' }).boundingBox())!.y);
  expect(unlockBox.y).toBeLessThan((await page.getByLabel('Recovery key').boundingBox())!.y);
  await unlock.click();
  await expect(page).toHaveURL(`${BASE}/dashboard`, { timeout: 20_000 });
  // Trusted now: the next visit unlocks with this browser's own copy, and the file opens.
  await page.goto('/profile');
  await expect(page.getByRole('list', { name: 'Devices' }).getByRole('listitem')).toHaveCount(2);
  expect(sha256(await downloadedBytes(page, folder.id, 'minutes.bin'))).toBe(sha256(content));

  // Signing in again from the confirmation: the provider asks for the sign-in (prompt=login), and
  // the browser comes back through /sso (this browser's copy now) to the profile.
  await page.goto('/profile');
  await page.getByRole('region', { name: 'Passkeys' }).getByRole('button', { name: 'Add a Passkey' }).click();
  await expect(page).toHaveURL(`${BASE}/profile`, { timeout: 20_000 });
  await page.getByRole('region', { name: 'Passkeys' }).getByRole('button', { name: 'Add a Passkey' }).click();
  await page.getByRole('dialog', { name: 'Add a Passkey' }).getByRole('link', { name: 'Sign in again with Example Staff' }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByLabel('Username').fill('erin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${BASE}/profile`, { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Passkeys' }).getByRole('listitem').filter({ hasText: 'Laptop' })).toBeVisible();

  // Another browser context with the same credential copied over CDP (which carries no PRF secret).
  const { credentials } = await authenticator.cdp.send('WebAuthn.getCredentials', { authenticatorId: authenticator.id });
  expect(credentials).toHaveLength(1);
  const otherContext = await newContext(browser);
  const other = await otherContext.newPage();
  await other.goto('/login');
  const copied = await virtualAuthenticator(other);
  await copied.cdp.send('WebAuthn.addCredential', { authenticatorId: copied.id, credential: credentials[0]! });

  // Its passkey does not sign in: the account signs in through the provider.
  await other.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(other.getByText('This account signs in through your organisation. Sign in there; your passkey then unlocks your keys.').first()).toBeVisible();
  await expect(other).toHaveURL(`${BASE}/login`);
  await expectAccessible(other, 'login with a refused passkey');
  await shot(other, 'login-with-a-refused-passkey');

  // After single sign-on, the passkey is offered; without PRF it says so, and the other ways remain.
  await signInBySso(other, 'erin');
  await other.getByRole('button', { name: 'Unlock with a passkey' }).click();
  await expect(other.getByText('This passkey cannot unlock your key: its authenticator has no PRF support.', { exact: false })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Approve from another device' })).toBeEnabled();
  await expect(other.getByLabel('Recovery key')).toBeEditable();
  await expect(other).toHaveURL(`${BASE}/sso`);
  await expectAccessible(other, 'sso passkey without prf');
  await shot(other, 'sso-passkey-without-prf');

  await otherContext.close();
  await context.close();
});
