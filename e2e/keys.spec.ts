// The admin's key pair in the real browser against the real server: generate it through the
// three-step modal (the backup download is captured and parsed), see 'stored' after a reload,
// change the login password and unlock with the new one (not the old), restore the backup in a
// second session, and restore it for another admin through the username-mismatch confirmation.
// What the server stores is opened with the node:crypto reference implementation, so the test
// proves the key really is wrapped under the login password, and under nothing else.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { unwrapPrivateKey } from '../server/crypto/keys.ts';
import { createPublicKey } from 'node:crypto';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';

const SHOTS_DIR = process.env.KEYS_SHOTS_DIR ?? '/tmp/keys-shots';
const CLOSE_BLOCKED = 'Please complete all steps (upload, save, download) before closing.';
const DECRYPTION_FAILED = 'Failed to unlock key: Decryption failed: Incorrect password or corrupted data.';

interface KeyData {
  encryptedPrivateKey: string;
  kdfSalt: string;
}

interface BackupJson extends KeyData {
  description: string;
  username: string;
  backupDate: string;
}

async function shot(page: Page, name: string, target?: Locator): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  if (target) await target.screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

function keySection(page: Page): Locator {
  return page.getByRole('region', { name: 'End-to-End Encryption Key' });
}

function statusBox(page: Page): Locator {
  return keySection(page).getByRole('status', { name: 'Key storage status' });
}

async function openProfile(page: Page): Promise<Locator> {
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My Profile & Settings' })).toBeVisible();
  return keySection(page);
}

/** What the server holds for the signed-in admin of `page` (same cookies). */
async function storedKeys(page: Page): Promise<{ status: number; keyData?: KeyData; publicKey?: string }> {
  const keyResponse = await page.request.get('/api/auth/users/me/encrypted-key');
  const publicResponse = await page.request.get('/api/auth/public-key');
  return {
    status: keyResponse.status(),
    ...(keyResponse.ok() ? { keyData: (await keyResponse.json()) as KeyData } : {}),
    ...(publicResponse.ok() ? { publicKey: ((await publicResponse.json()) as { public_key_spki: string }).public_key_spki } : {}),
  };
}

/** The key data opens with `password` and its private key belongs to `publicKeySpki`. */
function expectOpensWith(keyData: KeyData, password: string, publicKeySpki: string): void {
  const privateKey = unwrapPrivateKey(keyData, password);
  const derived = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  expect(derived).toBe(publicKeySpki);
}

function expectDoesNotOpenWith(keyData: KeyData, password: string): void {
  expect(() => unwrapPrivateKey(keyData, password)).toThrow(/incorrect password/);
}

/** Generates a key pair through the form, the confirmation and the modal; returns the saved backup. */
async function generateKeyPair(page: Page, account: AdminAccount, options: { screenshots?: boolean } = {}) {
  const section = keySection(page);
  await section.getByLabel('Login Password', { exact: true }).fill(account.password);
  await section.getByRole('button', { name: 'Generate New Key Pair' }).click();
  await page.getByRole('dialog', { name: 'Generate a new key pair?' }).getByRole('button', { name: 'Generate New Keys' }).click();

  const modal = page.getByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' });
  await expect(modal).toBeVisible({ timeout: 30_000 });
  const close = modal.getByRole('button', { name: 'Close' });
  await expect(close).toBeDisabled();
  await expect(close).toHaveAttribute('title', CLOSE_BLOCKED);
  await expect(modal.getByRole('button', { name: 'Save Key Data' })).toBeDisabled();
  if (options.screenshots) await shot(page, '03-modal-start', modal);

  await modal.getByRole('button', { name: 'Upload Public Key' }).click();
  await expect(modal.getByRole('button', { name: 'Uploaded ✓' })).toBeDisabled();
  await modal.getByRole('button', { name: 'Save Key Data' }).click();
  await expect(modal.getByRole('button', { name: 'Saved ✓' })).toBeDisabled();
  await expect(close).toBeDisabled();

  const downloadEvent = page.waitForEvent('download');
  await modal.getByRole('button', { name: 'Download Backup (.json)' }).click();
  const download = await downloadEvent;
  const backupPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-keys-')), download.suggestedFilename());
  await download.saveAs(backupPath);
  await expect(modal.getByRole('button', { name: 'Download Again?' })).toBeVisible();
  const done = modal.getByRole('button', { name: 'Done (Close)' });
  await expect(done).toBeEnabled();
  await expect(done).not.toHaveAttribute('title', CLOSE_BLOCKED);
  if (options.screenshots) await shot(page, '04-modal-done', modal);
  await done.click();
  await expect(modal).toBeHidden();

  const backup = JSON.parse(fs.readFileSync(backupPath, 'utf8')) as BackupJson;
  return { backup, backupPath, fileName: download.suggestedFilename() };
}

async function unlockDialog(page: Page): Promise<Locator> {
  await keySection(page).getByRole('button', { name: 'Unlock Private Key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Login Password Required' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function restore(page: Page, backupPath: string, password: string): Promise<Locator> {
  const section = keySection(page);
  await section.getByLabel('Backup file').setInputFiles(backupPath);
  await section.getByLabel('Current Login Password', { exact: true }).fill(password);
  await section.getByRole('button', { name: 'Restore Key' }).click();
  return section;
}

async function newSession(browser: Browser, account: AdminAccount): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

test('generate a key pair through the modal, see it stored, change the password and unlock with the new one only', async ({ page }) => {
  const admin = await createAdmin('keys.gen');
  await signIn(page, admin);
  const section = await openProfile(page);
  await expect(statusBox(page)).toHaveAttribute('data-status', 'not-stored');
  await expect(statusBox(page)).toContainText('No encrypted private key is stored on the server.');
  await expect(section.getByText('Not stored', { exact: true })).toBeVisible();
  await shot(page, '01-profile-no-key');
  await shot(page, '01b-key-section-no-key', section);

  // The form's own rules: a password is required; cancelling the confirmation says so.
  await section.getByRole('button', { name: 'Generate New Key Pair' }).click();
  await expect(section.getByText('Password required to generate and encrypt keys.')).toBeVisible();
  await section.getByLabel('Login Password', { exact: true }).fill(admin.password);
  await section.getByRole('button', { name: 'Generate New Key Pair' }).click();
  const confirm = page.getByRole('dialog', { name: 'Generate a new key pair?' });
  await expect(confirm).toContainText('become inaccessible unless you keep the backup file of your old key');
  await shot(page, '02-generate-confirm', confirm);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByText('Key generation cancelled.')).toBeVisible();

  // A wrong password is refused by the server before anything is generated.
  await section.getByLabel('Login Password', { exact: true }).fill('not-my-password');
  await section.getByRole('button', { name: 'Generate New Key Pair' }).click();
  await page.getByRole('dialog', { name: 'Generate a new key pair?' }).getByRole('button', { name: 'Generate New Keys' }).click();
  await expect(section.getByText('Key generation process failed: Incorrect password provided.')).toBeVisible();

  const { backup, fileName } = await generateKeyPair(page, admin, { screenshots: true });
  expect(fileName).toMatch(new RegExp(`^private-key-backup-${admin.username.replace(/[^A-Za-z0-9_-]/g, '_')}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
  expect(fileName).toContain('keys_gen-');
  expect(Object.keys(backup).sort()).toEqual(['backupDate', 'description', 'encryptedPrivateKey', 'kdfSalt', 'username']);
  expect(backup.username).toBe(admin.username);
  expect(Number.isNaN(Date.parse(backup.backupDate))).toBe(false);
  expect(backup.description.length).toBeGreaterThan(20);

  // The server holds exactly the backup's key data, under the login password, matching the public key.
  const stored = await storedKeys(page);
  expect(stored.keyData).toEqual({ encryptedPrivateKey: backup.encryptedPrivateKey, kdfSalt: backup.kdfSalt });
  expectOpensWith(stored.keyData!, admin.password, stored.publicKey!);
  expectDoesNotOpenWith(stored.keyData!, 'not-my-password');

  await page.reload();
  await expect(statusBox(page)).toHaveAttribute('data-status', 'stored');
  await expect(statusBox(page)).toContainText('Your encrypted private key is stored on the server.');
  await expect(keySection(page).getByText('Stored', { exact: true })).toBeVisible();
  await shot(page, '05-key-section-stored', keySection(page));

  // Change the login password: the key is re-wrapped in the browser and saved.
  const passwords = page.getByRole('region', { name: 'Change Login Password' });
  const newPassword = `${admin.password}-changed`;
  await passwords.getByLabel('Old Password', { exact: true }).fill(admin.password);
  await passwords.getByLabel('New Password', { exact: true }).fill(newPassword);
  await passwords.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
  await passwords.getByRole('button', { name: 'Change Password' }).click();
  await expect(passwords.getByText('Password changed successfully.')).toBeVisible({ timeout: 30_000 });
  const rewrapped = await storedKeys(page);
  expect(rewrapped.publicKey).toBe(stored.publicKey);
  expect(rewrapped.keyData).not.toEqual(stored.keyData);
  expectOpensWith(rewrapped.keyData!, newPassword, rewrapped.publicKey!);
  expectDoesNotOpenWith(rewrapped.keyData!, admin.password);

  // Unlock: the old password fails, Try Again, the new one works, Continue.
  let dialog = await unlockDialog(page);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog.getByText('Unlock requires a non-empty password.')).toBeVisible();
  await dialog.getByLabel('Login Password', { exact: true }).fill(admin.password);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(DECRYPTION_FAILED, { timeout: 30_000 });
  await shot(page, '06-unlock-error', dialog);
  await dialog.getByRole('button', { name: 'Try Again' }).click();
  await dialog.getByLabel('Login Password', { exact: true }).fill(newPassword);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog.getByText('Private key unlocked.')).toBeVisible({ timeout: 30_000 });
  await shot(page, '07-unlock-done', dialog);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
  await expect(statusBox(page)).toContainText('Unlocked for this session');

  // Locking forgets it; unlocking again asks again.
  await keySection(page).getByRole('button', { name: 'Lock Private Key' }).click();
  dialog = await unlockDialog(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('restore the backup in a second session, and for another admin after the username-mismatch confirmation', async ({ page, browser }) => {
  // Three sessions, two key pairs and about a dozen argon2id derivations in the browser.
  test.setTimeout(240_000);
  const owner = await createAdmin('keys.owner');
  await signIn(page, owner);
  await openProfile(page);
  const { backup, backupPath } = await generateKeyPair(page, owner);
  const original = await storedKeys(page);

  // A second session (another machine) of the same admin: new keys by mistake, then the backup back.
  const second = await newSession(browser, owner);
  await openProfile(second);
  await expect(statusBox(second)).toHaveAttribute('data-status', 'stored');
  await generateKeyPair(second, owner);
  const replaced = await storedKeys(second);
  expect(replaced.publicKey).not.toBe(original.publicKey);

  // Every check of the restore form, before anything is sent.
  const section = keySection(second);
  await section.getByRole('button', { name: 'Restore Key' }).click();
  await expect(section.getByText('Please select your .json backup file.')).toBeVisible();
  await section.getByLabel('Backup file').setInputFiles(backupPath);
  await section.getByRole('button', { name: 'Restore Key' }).click();
  await expect(section.getByText('Please enter your current login password to verify.')).toBeVisible();
  await section.getByLabel('Backup file').setInputFiles({ name: 'backup.txt', mimeType: 'text/plain', buffer: Buffer.from('{}') });
  await section.getByLabel('Current Login Password', { exact: true }).fill(owner.password);
  await section.getByRole('button', { name: 'Restore Key' }).click();
  await expect(section.getByText('Invalid file type. Please select the downloaded .json backup file.')).toBeVisible();
  await section.getByLabel('Backup file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{not json') });
  await section.getByRole('button', { name: 'Restore Key' }).click();
  await expect(section.getByText("Failed to parse backup file. Ensure it's a valid JSON file.")).toBeVisible();
  await section.getByLabel('Backup file').setInputFiles({
    name: 'partial.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ username: owner.username, encryptedPrivateKey: backup.encryptedPrivateKey })),
  });
  await section.getByRole('button', { name: 'Restore Key' }).click();
  await expect(section.getByText('Invalid or incomplete backup file structure. Missing required key data or salt.')).toBeVisible();
  await restore(second, backupPath, 'not-my-password');
  await expect(section.getByText('Password verification failed. Please enter your current login password.')).toBeVisible();

  await restore(second, backupPath, owner.password);
  await expect(section.getByText('Private key restored successfully.')).toBeVisible({ timeout: 30_000 });
  expect(await second.evaluate(() => sessionStorage.getItem('keyRestored'))).toBe('true');
  const restored = await storedKeys(second);
  expect(restored.publicKey).toBe(original.publicKey);
  expect(restored.keyData).toEqual({ encryptedPrivateKey: backup.encryptedPrivateKey, kdfSalt: backup.kdfSalt });
  await expect(statusBox(second)).toHaveAttribute('data-status', 'stored');
  const dialog = await unlockDialog(second);
  await dialog.getByLabel('Login Password', { exact: true }).fill(owner.password);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog.getByText('Private key unlocked.')).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await second.context().close();

  // Another admin: the username differs, so a confirmation comes first; Cancel stops the restore.
  const other = await createAdmin('keys.other');
  const otherPage = await newSession(browser, other);
  await openProfile(otherPage);
  const otherSection = await restore(otherPage, backupPath, other.password);
  const mismatch = otherPage.getByRole('dialog', { name: 'Backup belongs to another user' });
  await expect(mismatch).toContainText(`made for the user "${owner.username}"`);
  await expect(mismatch).toContainText(`signed in as "${other.username}"`);
  await shot(otherPage, '08-username-mismatch', mismatch);
  await mismatch.getByRole('button', { name: 'Cancel' }).click();
  await expect(otherSection.getByText('Restore cancelled due to username mismatch.')).toBeVisible();
  expect((await storedKeys(otherPage)).status).toBe(404);

  // Restore Anyway: the backup opens only with the owner's password, which is asked for next; the
  // key is then stored under this admin's own login password.
  await restore(otherPage, backupPath, other.password);
  await mismatch.getByRole('button', { name: 'Restore Anyway' }).click();
  await expect(otherSection.getByText('This backup does not open with your current login password.', { exact: false })).toBeVisible({
    timeout: 30_000,
  });
  await otherSection.getByLabel('Password When Backup Was Made', { exact: true }).fill(owner.password);
  await shot(otherPage, '09-restore-older-password', otherSection);
  await otherSection.getByRole('button', { name: 'Restore Key' }).click();
  await expect(otherPage.getByRole('dialog', { name: 'Backup belongs to another user' })).toBeVisible();
  await mismatch.getByRole('button', { name: 'Restore Anyway' }).click();
  await expect(otherSection.getByText('Private key restored successfully.')).toBeVisible({ timeout: 30_000 });
  const adopted = await storedKeys(otherPage);
  expect(adopted.publicKey).toBe(original.publicKey);
  expectOpensWith(adopted.keyData!, other.password, adopted.publicKey!);
  expectDoesNotOpenWith(adopted.keyData!, owner.password);
  await shot(otherPage, '10-restored', otherSection);
  await otherPage.context().close();
});

test('a public key without a stored private key shows the warning', async ({ page }) => {
  const admin = await createAdmin('keys.warn');
  await signIn(page, admin);
  await openProfile(page);
  // Only step 1 of a new pair reached the server (e.g. the tab was closed after it).
  const { publicKey } = await (async () => {
    const section = keySection(page);
    await section.getByLabel('Login Password', { exact: true }).fill(admin.password);
    await section.getByRole('button', { name: 'Generate New Key Pair' }).click();
    await page.getByRole('dialog', { name: 'Generate a new key pair?' }).getByRole('button', { name: 'Generate New Keys' }).click();
    const modal = page.getByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' });
    await modal.getByRole('button', { name: 'Upload Public Key' }).click();
    await expect(modal.getByRole('button', { name: 'Uploaded ✓' })).toBeVisible({ timeout: 30_000 });
    return storedKeys(page);
  })();
  expect(publicKey, 'the uploaded SPKI').toMatch(/^MII[A-Za-z0-9+/]+=*$/);
  await page.reload();
  await expect(statusBox(page)).toHaveAttribute('data-status', 'not-stored');
  const warning = keySection(page).getByRole('alert').filter({ hasText: 'Public key without a stored private key' });
  await expect(warning).toBeVisible();
  await shot(page, '11-orphaned-public-key-warning', keySection(page));
});
