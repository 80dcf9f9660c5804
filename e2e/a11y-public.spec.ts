// Accessibility of the public pages (issue 29, docs/accessibility.md): axe-core with the WCAG
// 2.0–2.2 A/AA rules (e2e/support/axe.ts) over the upload page in every step and gate (password,
// e-mail, code and their errors, the queue, processing and uploading, finished, finished with
// errors, the key failure, the fatal link error) and the download page in every state (password
// prompt and its error, the file list, a finished download, missing keys, an unknown link), at
// 1280 px and, for the main states, at 390 px. Fails on any critical or serious violation. The
// upload request is held or answered by the spec (page.route) to catch the states in between.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import { AdminClient } from './support/api-client.ts';
import { createAdmin, signIn } from './support/admin.ts';
import { expectAccessible } from './support/axe.ts';
import { E2E_BASE_URL, E2E_DATA_DIR } from './support/environment.mjs';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { createFolder } from './support/files-seed.ts';
import { linkWithFiles } from './support/link-seed.ts';
import { codeFromOutbox } from './support/outbox.ts';

// The axe sweeps look at the app with its default motion, as most people see it (the rest of the
// suite asks for reduced motion: e2e/support/environment.mjs).
test.use({ reducedMotion: 'no-preference' });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** Writes small files into a fresh temporary directory; returns their paths. */
function tempFiles(names: string[]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-a11y-'));
  return names.map((name) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, randomBytes(2_000));
    return file;
  });
}

/** Checks the page at 1280 px, then at 390 px, and returns to 1280 px. */
async function expectAccessibleAtBothWidths(page: Page, screen: string): Promise<void> {
  await expectAccessible(page, screen);
  await page.setViewportSize(PHONE);
  await expectAccessible(page, screen);
  await page.setViewportSize(DESKTOP);
}

/** Holds the upload page's multipart requests until `release` is called. */
async function holdUploads(page: Page, linkToken: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${E2E_BASE_URL}/api/upload/${linkToken}`, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('the upload page in every step and gate', async ({ page, browser }) => {
  // A long journey (every gate, an upload, axe on each state) beside the other project's spec.
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  await page.goto('/upload/no-such-link');
  await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
  await expectAccessible(page, 'upload-fatal');

  const { admin } = await AdminClient.create(E2E_BASE_URL, E2E_DATA_DIR, 'a11y-upload');
  const gated = await admin.createFolder({ title: 'Gated intake', link_password: 'Sonnenblume25-417', require_email_verification: true, perform_mime_check: false });
  await page.goto(`/upload/${gated.link_token}`);
  const passwordGate = page.getByRole('form', { name: 'Link password' });
  await expect(passwordGate).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'upload-password');
  await passwordGate.getByRole('button', { name: 'Continue' }).click();
  await expect(passwordGate.getByLabel('Link password')).toHaveAccessibleDescription('Link password required.');
  await passwordGate.getByLabel('Link password').fill('wrong');
  await passwordGate.getByRole('button', { name: 'Continue' }).click();
  await expect(passwordGate.getByRole('alert')).toHaveText('Incorrect password provided.');
  await expectAccessible(page, 'upload-password-error');
  await passwordGate.getByLabel('Link password').fill('Sonnenblume25-417');
  await passwordGate.getByRole('button', { name: 'Continue' }).click();

  const emailGate = page.getByRole('form', { name: 'E-mail verification' });
  await expect(emailGate).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'upload-email');
  await emailGate.getByLabel('Your e-mail address').fill('not-an-address');
  await emailGate.getByRole('button', { name: 'Send Code' }).click();
  await expect(emailGate.getByLabel('Your e-mail address')).toHaveAccessibleDescription('Enter a valid e-mail address.');
  await expectAccessible(page, 'upload-email-error');
  const email = `uploader-${randomBytes(4).toString('hex')}@example.com`;
  await emailGate.getByLabel('Your e-mail address').fill(email);
  await emailGate.getByRole('button', { name: 'Send Code' }).click();

  const codeGate = page.getByRole('form', { name: 'Verification code' });
  await expect(codeGate).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'upload-code');
  const code = await codeFromOutbox(E2E_DATA_DIR, email);
  await codeGate.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
  await codeGate.getByRole('button', { name: 'Verify Code' }).click();
  await expect(codeGate.getByLabel('Verification code')).toHaveAccessibleDescription('Invalid or expired verification code.');
  await expectAccessible(page, 'upload-code-error');
  await codeGate.getByLabel('Verification code').fill(code);
  await codeGate.getByRole('button', { name: 'Verify Code' }).click();
  await expect(page.getByText('Drag and drop files or folders here')).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'upload-ready');

  // The queue, long enough to scroll; then held in 'uploading'; then finished.
  const open = await admin.createFolder({ title: 'Open intake', perform_mime_check: false });
  await page.goto(`/upload/${open.link_token}`);
  await page.getByTestId('file-input').setInputFiles(tempFiles(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt']));
  const queue = page.getByRole('list', { name: 'Files to upload' });
  await expect(queue.getByRole('listitem')).toHaveCount(6);
  await expectAccessibleAtBothWidths(page, 'upload-queue');

  const release = await holdUploads(page, open.link_token);
  await page.getByRole('button', { name: 'Upload 6 files' }).click();
  await expect(page.getByRole('button', { name: 'Uploading...' })).toBeVisible();
  await expect(page.getByTestId('live-announcer')).toHaveText(/^(Upload started: 6 files\.|Uploading: \d+%\.)$/);
  await expectAccessible(page, 'upload-uploading');
  release();
  await expect(page.getByText('Upload successful! All 6 processed files received.')).toBeVisible({ timeout: 60_000 });
  await expect(queue.locator('[data-status="success"]')).toHaveCount(6);
  await expectAccessibleAtBothWidths(page, 'upload-finished');
  const receipt = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Receipt' }).click();
  expect((await receipt).suggestedFilename()).toMatch(/^Upload_Receipt_Cumulative_.*\.txt$/);
  await page.unrouteAll({ behavior: 'wait' });

  // Finished with errors: the server refuses the file.
  await page.route(`${E2E_BASE_URL}/api/upload/${open.link_token}`, (route) =>
    route.fulfill({
      status: 200,
      json: { successful_files: [], failed_files: [{ filename: 'refused.txt', original_raw_name_from_client: 'refused.txt', path: '.', size: 2000, error: 'Upload failed on server' }] },
    }),
  );
  await page.getByTestId('file-input').setInputFiles(tempFiles(['refused.txt']));
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(page.getByRole('button', { name: 'Retry Failed (1)' })).toBeVisible({ timeout: 60_000 });
  await expectAccessibleAtBothWidths(page, 'upload-finished-with-errors');
  await page.unrouteAll({ behavior: 'wait' });

  // The folder's owner has no key pair: the key failure.
  const keyless = await browser.newContext();
  const ownerPage = await keyless.newPage();
  await signIn(ownerPage, await createAdmin('a11y-keyless'));
  const noKey = await createFolder(ownerPage, 'No key yet');
  await keyless.close();
  await page.goto(`/upload/${noKey.link_token}`);
  await page.getByTestId('file-input').setInputFiles(tempFiles(['waiting.txt']));
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(page.getByRole('main').getByRole('alert').filter({ hasText: /key/i })).toBeVisible();
  await expectAccessible(page, 'upload-key-failed');
});

test('the download page in every state', async ({ browser }) => {
  const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  await withoutFileSystemAccess(context);
  const page = await context.newPage();

  const password = 'Sonnenblume25-417';
  const protectedLink = await linkWithFiles(browser, [{ name: 'contract.pdf', content: Buffer.from('contract') }], { password });
  await page.goto(protectedLink.url);
  const unlock = page.getByRole('form', { name: 'Unlock files' });
  await expect(unlock.getByText('This download is password protected.')).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'download-password');
  await unlock.getByLabel('Password').fill('wrong password');
  await unlock.getByRole('button', { name: 'Unlock Files' }).click();
  await expect(unlock.getByLabel('Password')).toHaveAccessibleDescription('Incorrect password provided.');
  await expectAccessible(page, 'download-password-error');
  await unlock.getByLabel('Password').fill(password);
  await unlock.getByRole('button', { name: 'Unlock Files' }).click();
  await expect(page.getByText('Files ready for download:')).toBeVisible();

  const link = await linkWithFiles(browser, [
    { name: 'letter.txt', content: Buffer.from('dear client') },
    { name: 'scan.pdf', content: Buffer.from('a scan') },
  ]);
  await page.goto(link.url);
  await expect(page.getByText('letter.txt')).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'download-list');
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download letter.txt' }).click();
  await saved;
  await expect(page.getByRole('button', { name: 'Done! letter.txt' })).toBeVisible();
  await expect(page.getByTestId('live-announcer')).toHaveText('letter.txt downloaded.');
  await expectAccessible(page, 'download-done');

  await page.goto(link.url.slice(0, link.url.indexOf('#')));
  await expect(page.getByRole('alert')).toContainText('Decryption keys are missing from the link.');
  await expectAccessibleAtBothWidths(page, 'download-keys-missing');

  await page.goto('/download/no-such-link#1:AAAA');
  await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
  await expectAccessible(page, 'download-unknown-link');
  await context.close();
});
