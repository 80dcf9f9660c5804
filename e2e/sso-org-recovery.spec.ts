// The organisation recovery policy in real browsers against the real server and a real OpenID
// provider on loopback (tests/support/oidc-provider.ts): an organisation admin signed in by single
// sign-on turns the policy on; a member signs in, makes their keys (their browser stores the copy
// for the organisation) and receives a file; in a fresh browser, with no trusted device and no
// recovery key, the member asks for approval; the admin compares the five words and restores the
// member's access; the member's file decrypts byte-identical there. axe checks each new screen.
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
// Beside sso.spec.ts's ports (E2E_PORT + 90, + 91), so both may run at once.
const PORT = Number(process.env.ORG_RECOVERY_E2E_PORT ?? E2E_PORT + 93);
const PROVIDER_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.join(ROOT, `.tmp/sso-org-recovery-e2e-${PORT}`);

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
    users: {
      boss: { email: 'boss@staff.example', name: 'Boss', groups: ['staff', 'admins'] },
      erin: { email: 'erin@staff.example', name: 'Erin', groups: ['staff'] },
    },
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
      OIDC_ADMIN_GROUP: 'admins',
      RATE_LIMIT_PRELOGIN_PER_IP: '1000000',
    },
  });
  await server.start();
});
test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE });
  await withoutFileSystemAccess(context);
  return context.newPage();
}

async function signInBySso(page: Page, login: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Example Staff' }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${BASE}/sso`);
  await expect(page.getByRole('heading', { name: 'Your encryption keys' })).toBeVisible();
}

/** The first sign-in's key pair, the recovery key acknowledged (and thrown away: the member loses it). */
async function createKeys(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create my keys' }).click();
  await expect(page.getByTestId('recovery-key')).toBeVisible();
  await page.getByLabel('I have stored my recovery key').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(`${BASE}/dashboard`);
}

async function csrf(page: Page): Promise<Record<string, string>> {
  return { 'x-csrftoken': (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '' };
}

async function uploadThroughLink(browser: Browser, linkToken: string, name: string, content: Buffer): Promise<void> {
  const uploader = await newPage(browser);
  const dir = fs.mkdtempSync(path.join(ROOT, '.tmp/sso-org-upload-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  await uploader.goto(`/upload/${linkToken}`);
  await uploader.getByTestId('file-input').setInputFiles(file);
  await uploader.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(uploader.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 60_000 });
  await uploader.context().close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Opens the folder after a page load (the key locked: /sso unlocks it with this browser's copy and comes back) and downloads `name`. */
async function downloadedBytes(page: Page, folderId: number, name: string): Promise<Buffer> {
  await page.goto(`/folders/view/${folderId}`);
  await page.getByRole('button', { name: `Download ${name}` }).click();
  await page.waitForURL(`${BASE}/sso?next=${encodeURIComponent(`/folders/view/${folderId}`)}`);
  await page.waitForURL(`${BASE}/folders/view/${folderId}`);
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: `Download ${name}` }).click();
  return fs.readFileSync(await (await started).path());
}

test("an admin restores the access of a member who lost every device and their recovery key; the member's file decrypts", async ({ browser }) => {
  // The organisation admin (by the provider's admin group) signs in, makes keys, opens Members.
  const admin = await newPage(browser);
  await signInBySso(admin, 'boss');
  await createKeys(admin);
  await admin.goto('/members');
  const section = admin.getByRole('region', { name: 'Organisation recovery' });
  await expect(section.getByText("No admin can read anyone's files.", { exact: false })).toBeVisible();
  await expectAccessible(admin, 'members page, organisation recovery off');
  await shot(admin, 'org-recovery-members-page-organisation-recovery-off');

  // Turning it on says what it costs and asks to confirm.
  await section.getByRole('button', { name: 'Turn On Organisation Recovery...' }).click();
  const confirm = admin.getByRole('dialog', { name: 'Turn on organisation recovery?' });
  await expect(confirm.getByText("can read those members' files", { exact: false })).toBeVisible();
  await expectAccessible(admin, 'organisation recovery confirmation');
  await shot(admin, 'org-recovery-organisation-recovery-confirmation');
  await confirm.getByRole('button', { name: 'Turn On' }).click();
  await expect(admin.getByText('Organisation recovery is on.')).toBeVisible();
  await expect(section.getByText('boss: holds the key')).toBeVisible();
  await expect(admin.getByText("Organisation recovery is on: admins can restore members' access, and so read their files.")).toBeVisible();
  const orgFingerprint = section.getByTestId('org-key-fingerprint');
  await expect(orgFingerprint).toHaveText(/^([0-9A-F]{4} ){9}[0-9A-F]{4}$/);
  const fingerprint = (await orgFingerprint.textContent())!;
  await expectAccessible(admin, 'members page, organisation recovery on');
  await shot(admin, 'org-recovery-members-page-organisation-recovery-on');

  // The member signs in: /sso says the organisation can restore access and read files, with the
  // same fingerprint; making the keys stores the copy for the organisation.
  const member = await newPage(browser);
  await signInBySso(member, 'erin');
  const notice = member.getByTestId('org-recovery-notice');
  await expect(notice).toContainText('can therefore read your files');
  await expect(notice.getByTestId('org-key-fingerprint')).toHaveText(fingerprint);
  await expectAccessible(member, 'sso setup with the organisation recovery notice');
  await shot(member, 'org-recovery-sso-setup-with-the-organisation-recovery-notice');
  await createKeys(member);
  const state = (await (await member.request.get('/api/auth/org-recovery-copy')).json()) as { stored: boolean };
  expect(state.stored).toBe(true);
  await member.goto('/profile');
  await expect(member.getByTestId('org-recovery-stored')).toHaveText('A copy of your key is held for your organisation.');
  await expectAccessible(member, 'profile devices with the organisation recovery notice');
  await shot(member, 'org-recovery-profile-devices-with-the-organisation-recovery-notice');

  // A file for the member, encrypted in an uploader's browser for the member's key.
  const folder = (await (await member.request.post('/api/folders/', { data: { title: 'Erin files', perform_mime_check: false }, headers: await csrf(member) })).json()) as {
    id: number;
    link_token: string;
  };
  const content = randomBytes(200_000);
  await uploadThroughLink(browser, folder.link_token, 'contract.bin', content);

  // Every device and the recovery key lost: a fresh browser asks for approval.
  await member.context().close();
  const fresh = await newPage(browser);
  await signInBySso(fresh, 'erin');
  await expect(fresh.getByText('This device does not hold your key yet.', { exact: false })).toBeVisible();
  await fresh.getByRole('button', { name: 'Approve from another device' }).click();
  const phrase = (await fresh.getByTestId('approval-phrase').textContent())!.trim();
  expect(phrase.split(' ')).toHaveLength(5);

  // The admin (key unlocked by this browser's copy on the way) sees the request on erin's card.
  await admin.goto(`/sso?next=${encodeURIComponent('/members')}`);
  await expect(admin).toHaveURL(`${BASE}/members`);
  const card = admin.getByRole('listitem', { name: 'erin' });
  await expect(card.getByText('Key held for recovery')).toBeVisible();
  await card.getByRole('button', { name: 'Restore access of erin' }).click({ timeout: 20_000 });
  const dialog = admin.getByRole('dialog', { name: 'Restore access of erin' });
  await expect(dialog.getByTestId('restore-request-phrase')).toHaveText(phrase, { timeout: 15_000 });
  await expectAccessible(admin, 'restore access dialog');
  await shot(admin, 'org-recovery-restore-access-dialog');
  await dialog.getByRole('button', { name: 'The Words Match: Restore' }).click();
  await expect(admin.getByText("erin's new device now holds their key.")).toBeVisible();

  // The member's waiting page receives it and unlocks; the file decrypts byte-identical there.
  await expect(fresh).toHaveURL(`${BASE}/dashboard`, { timeout: 20_000 });
  expect(sha256(await downloadedBytes(fresh, folder.id, 'contract.bin'))).toBe(sha256(content));

  // Recorded in the member's activity log.
  const log = (await (await fresh.request.get('/api/activity?kind=org_recovery.restored')).json()) as { entries: Array<{ details: Record<string, unknown> }> };
  expect(log.entries).toHaveLength(1);
  expect(log.entries[0]!.details.by_username).toBe('boss');

  // Turning it off deletes every copy; the member is told nothing more.
  await admin.getByRole('dialog', { name: 'Restore access of erin' }).getByRole('button', { name: 'Close' }).click();
  await section.getByRole('button', { name: 'Turn Off...' }).click();
  await admin.getByRole('dialog', { name: 'Turn off organisation recovery?' }).getByRole('button', { name: 'Turn Off' }).click();
  await expect(admin.getByText('Organisation recovery is off; every copy was deleted.')).toBeVisible();
  expect(await (await fresh.request.get('/api/auth/org-recovery-copy')).json()).toEqual({ key: null, stored: false });
});
