/**
 * Zero-knowledge sign-in (issue 27), proved on the wire: every request Chromium sends during a whole
 * journey is recorded (URL, headers, body; the admin's pages and the recipient's) and searched for
 * the login passwords and the link password in every encoding a leak could take (as typed,
 * URL-encoded, form-encoded, JSON-escaped, base64, base64url, hex).
 *
 * The journey: an account made by the code of before (tests/support/legacy-account.ts: a hash of
 * the password, its private key under PBKDF2), with files uploaded for its key, signs in for the
 * first time; a file uploaded before the upgrade is downloaded (the key unlocked with the password);
 * a password link is created for it and a recipient downloads through it; a new key pair is
 * generated and its backup downloaded; the password is changed; the profile saved; 2FA enabled and
 * disabled; the admin signs out and in again.
 *
 * The old password is sent in exactly two requests of the first sign-in (the old check and the
 * upgrade that ends it) and never after; the new password and the link password never at all.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import { newToken } from '../server/auth/tokens.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/connection.ts';
import { createRepositories } from '../server/db/repositories/index.ts';
import { createLegacyAccount } from '../tests/support/legacy-account.ts';
import { E2E_DATA_DIR } from './support/environment.mjs';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { sha256, uploadFiles, type UploadedFile } from './support/files-seed.ts';
import { Authenticator } from './support/totp.ts';

test.setTimeout(300_000);

interface Recorded {
  phase: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

const recorded: Recorded[] = [];
let phase = 'setup';

function record(context: BrowserContext): void {
  context.on('request', (request: Request) => {
    recorded.push({ phase, method: request.method(), url: request.url(), headers: request.headers(), body: request.postDataBuffer() ?? Buffer.alloc(0) });
  });
}

/** Every form a secret could take on the wire. */
function encodings(secret: string): string[] {
  const utf8 = Buffer.from(secret, 'utf8');
  return [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ x: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    utf8.toString('base64'),
    utf8.toString('base64').replace(/=+$/, ''),
    utf8.toString('base64url'),
    utf8.toString('hex'),
    utf8.toString('hex').toUpperCase(),
  ];
}

/** The recorded requests that carry `secret` in any encoding, anywhere (URL, header, body). */
function carrying(secret: string): Recorded[] {
  const forms = encodings(secret);
  return recorded.filter((request) => {
    const text = [request.url, decodeURIComponent(request.url), JSON.stringify(request.headers), request.body.toString('utf8'), request.body.toString('latin1')].join('\n');
    return forms.some((form) => text.includes(form));
  });
}

async function newRecordedPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  await withoutFileSystemAccess(context);
  record(context);
  return context.newPage();
}

async function savedBytes(page: Page, start: () => Promise<void>): Promise<Buffer> {
  const started = page.waitForEvent('download', { timeout: 90_000 });
  await start();
  return fs.readFileSync(await (await started).path());
}

test('the login and link passwords never reach the server, in any request of a whole journey', async ({ browser }) => {
  // --- An account of the old scheme, with files uploaded for its key (outside the browser).
  const username = `zk-legacy-${randomBytes(3).toString('hex')}`;
  const oldPassword = `Alte Wiese ${randomBytes(4).toString('hex')} ü`;
  const newPassword = `Neues Feld ${randomBytes(4).toString('hex')} ß`;
  const database = await openDatabase(loadConfig({ DATA_DIR: E2E_DATA_DIR }).database);
  let files: UploadedFile[];
  let folderId: number;
  try {
    const repos = createRepositories(database.db);
    const account = await createLegacyAccount(repos, { username, password: oldPassword, now: Date.now(), withKeyPair: true });
    const folder = await repos.folders.create({
      ownerId: account.user.id,
      title: 'Before the upgrade',
      description: null,
      linkToken: newToken(),
      linkPasswordHash: null,
      requireEmailVerification: false,
      allowedEmails: null,
      performMimeCheck: false,
      isActive: true,
      expirationDate: null,
      creationDate: Date.now(),
    });
    folderId = folder.id;
    files = await uploadFiles(folder.linkToken, account.keyPair!.publicKeySpki, [
      { dir: '.', name: 'contract.txt', content: Buffer.from(`Signed before the upgrade ${randomBytes(8).toString('hex')}\n`) },
      { dir: '.', name: 'scan.bin', content: randomBytes(300_000) },
    ]);
  } finally {
    await database.close();
  }
  const [contract, scan] = files;

  const page = await newRecordedPage(browser);

  // --- First sign-in: the old check with the password, then the upgrade, then the dashboard.
  phase = 'first sign-in';
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(oldPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  // The page asks before the password itself leaves the browser.
  await page.getByRole('button', { name: 'Send my password once' }).click({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible({ timeout: 60_000 });

  // --- Download a file uploaded before the upgrade: the key (re-wrapped at sign-in) unlocks with the password.
  phase = 'download';
  await page.goto(`/folders/view/${folderId}`);
  const table = page.getByRole('table', { name: 'Files' });
  await expect(table).toBeVisible();
  const downloaded = await savedBytes(page, async () => {
    await table.getByRole('button', { name: `Download ${contract!.name}` }).click();
    const unlock = page.getByRole('dialog', { name: 'Login Password Required' });
    await unlock.getByLabel('Login Password').fill(oldPassword);
    await unlock.getByRole('button', { name: 'Unlock' }).click();
    await unlock.getByRole('button', { name: 'Continue' }).click({ timeout: 60_000 });
  });
  expect(sha256(downloaded)).toBe(sha256(contract!.content));

  // --- A password link for the other file (the key is unlocked for the session now).
  phase = 'link with password';
  await table.getByRole('checkbox', { name: `Select ${scan!.name}` }).check();
  await page.getByRole('button', { name: 'Create Download Link...' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Download Link' });
  const linkPassword = await dialog.getByLabel('Link password', { exact: true }).inputValue();
  expect(linkPassword).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+\d{2}-\d{3}$/);
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const ready = page.getByRole('dialog', { name: 'Download Link Ready' });
  const linkUrl = await ready.getByRole('textbox', { name: 'Download link' }).inputValue({ timeout: 60_000 });
  await ready.getByRole('button', { name: 'Close' }).click();

  // --- The recipient, in a context of their own.
  phase = 'recipient';
  const recipient = await newRecordedPage(browser);
  await recipient.goto(linkUrl);
  await recipient.getByLabel('Password').fill(linkPassword);
  await recipient.getByRole('button', { name: 'Unlock Files' }).click();
  await expect(recipient.getByText('Files ready for download:')).toBeVisible({ timeout: 60_000 });
  const row = recipient.getByRole('list', { name: 'Shared files' }).getByRole('listitem', { name: scan!.name, exact: true });
  const received = await savedBytes(recipient, () => row.getByRole('button').click());
  expect(sha256(received)).toBe(sha256(scan!.content));

  // --- A new key pair and its backup.
  phase = 'key generation and backup';
  await page.goto('/profile');
  const keySection = page.getByRole('region', { name: 'End-to-End Encryption Key' });
  await keySection.getByLabel('Login Password', { exact: true }).fill(oldPassword);
  await keySection.getByRole('button', { name: 'Generate New Key Pair' }).click();
  await page.getByRole('dialog', { name: 'Generate a new key pair?' }).getByRole('button', { name: 'Generate New Keys' }).click();
  const modal = page.getByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' });
  await expect(modal).toBeVisible({ timeout: 60_000 });
  await modal.getByRole('button', { name: 'Upload Public Key' }).click();
  await expect(modal.getByRole('button', { name: 'Uploaded ✓' })).toBeDisabled();
  await modal.getByRole('button', { name: 'Save Key Data' }).click();
  await expect(modal.getByRole('button', { name: 'Saved ✓' })).toBeDisabled();
  const backup = JSON.parse(
    (await savedBytes(page, () => modal.getByRole('button', { name: 'Download Backup (.json)' }).click())).toString('utf8'),
  ) as { kdfSalt: string };
  expect(Buffer.from(backup.kdfSalt, 'base64')[0]).toBe(3);
  await modal.getByRole('button', { name: 'Done (Close)' }).click();

  // --- Password change (the key is re-wrapped under the new one).
  phase = 'password change';
  const passwords = page.getByRole('region', { name: 'Change Login Password' });
  await passwords.getByLabel('Old Password', { exact: true }).fill(oldPassword);
  await passwords.getByLabel('New Password', { exact: true }).fill(newPassword);
  await passwords.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
  await passwords.getByRole('button', { name: 'Change Password' }).click();
  await expect(passwords.getByText('Password changed successfully.')).toBeVisible({ timeout: 60_000 });

  // --- Profile save.
  phase = 'profile save';
  const info = page.getByRole('region', { name: 'Profile Information' });
  await info.getByLabel('Email', { exact: true }).fill('zk-journey@example.com');
  await info.getByLabel('Current Password', { exact: true }).fill(newPassword);
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(info.getByText('Profile updated successfully.')).toBeVisible({ timeout: 60_000 });

  // --- 2FA on, then off with the password.
  phase = '2FA';
  const twoFactor = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await twoFactor.getByRole('button', { name: 'Enable 2FA' }).click();
  const authenticator = new Authenticator((await twoFactor.getByLabel('Two-factor secret').textContent())?.trim() ?? '');
  await twoFactor.getByLabel('Authentication Code', { exact: true }).fill(await authenticator.nextCode());
  await twoFactor.getByRole('button', { name: 'Verify & Enable' }).click();
  await twoFactor.getByRole('button', { name: 'Disable 2FA' }).click();
  await twoFactor.getByLabel('Login Password', { exact: true }).fill(newPassword);
  await twoFactor.getByRole('button', { name: 'Disable', exact: true }).click();
  await page.getByRole('dialog', { name: 'Disable two-factor authentication?' }).getByRole('button', { name: 'Disable 2FA' }).click();
  await expect(twoFactor.getByRole('button', { name: 'Enable 2FA' })).toBeVisible({ timeout: 60_000 });

  // --- Sign out, and in again with the new password.
  phase = 'second sign-in';
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible({ timeout: 60_000 });

  // --- What went over the wire.
  const phases = new Set(recorded.map((request) => request.phase));
  for (const expected of ['first sign-in', 'download', 'link with password', 'recipient', 'key generation and backup', 'password change', 'profile save', '2FA', 'second sign-in']) {
    expect(phases, expected).toContain(expected);
  }
  expect(recorded.filter((request) => request.url.includes('/api/auth/prelogin')).length).toBeGreaterThanOrEqual(6);
  const describe = (requests: Recorded[]) => requests.map((request) => `${request.phase}: ${request.method} ${new URL(request.url).pathname}`);
  // The old password: once more in the old check and in the upgrade that ends it, never after.
  expect(describe(carrying(oldPassword))).toEqual(['first sign-in: POST /api/auth/token', 'first sign-in: POST /api/auth/upgrade-login']);
  expect(describe(carrying(newPassword))).toEqual([]);
  expect(describe(carrying(linkPassword))).toEqual([]);
});
