// The admin files screen in the real browser against the real server: files uploaded with
// directory paths (node:crypto encryption through the anonymous multipart route), then, as the
// admin, the tree, selection and filter; downloads of one file, a directory and everything,
// decrypted by the app's service worker and written by Chromium's download manager, unzipped
// here and compared byte for byte (and by SHA-256) with the originals; a tampered blob failing with
// the spec's message; deletes with their confirmation and partial failures. The pages have no
// File System Access API here (as in Firefox), so every download takes the service-worker path;
// e2e/direct-download.spec.ts covers the direct-to-disk path.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { readZip } from '../tests/support/zip.ts';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { blobOfPlainSize, createFolder, giveAdminKeyPair, sha256, storedBlobs, uploadFiles, uploadThroughPage, type PlainFile, type UploadedFile } from './support/files-seed.ts';

const SHOTS_DIR = process.env.FILES_SHOTS_DIR ?? '/tmp/files-shots';
const INTEGRITY_FAILURE = 'Download failed: Decryption failed: Incorrect password or corrupted data.';

async function shot(page: Page, name: string, target?: Locator): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  if (target) await target.screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

interface Seeded {
  admin: AdminAccount;
  folderId: number;
  files: UploadedFile[];
}

function debug(page: Page): void {
  if (!process.env.FILES_DEBUG) return;
  const context = page.context();
  context.on('console', (message) => console.log('console:', message.type(), message.text()));
  context.on('serviceworker', (worker) => worker.on('console', (message) => console.log('sw console:', message.type(), message.text())));
  context.on('request', (request) => console.log('request:', request.method(), request.url(), request.serviceWorker() ? '(sw)' : ''));
  context.on('requestfailed', (request) => console.log('failed:', request.url(), request.failure()?.errorText));
  context.on('response', (response) => console.log('response:', response.status(), response.url(), response.fromServiceWorker() ? '(from sw)' : ''));
}

async function seed(page: Page, title: string, files: PlainFile[], options: { throughUploadPage?: string } = {}): Promise<Seeded> {
  debug(page);
  await withoutFileSystemAccess(page);
  const admin = await createAdmin('files');
  await signIn(page, admin);
  const publicKey = await giveAdminKeyPair(page, admin.password);
  const folder = await createFolder(page, title);
  const uploaded = options.throughUploadPage
    ? await uploadThroughPage(page, folder, options.throughUploadPage, files)
    : await uploadFiles(folder.link_token, publicKey, files);
  return { admin, folderId: folder.id, files: uploaded };
}

async function openFolder(page: Page, seeded: Seeded, title: string): Promise<Locator> {
  await page.goto(`/folders/view/${seeded.folderId}`);
  await expect(page.getByRole('heading', { name: `Files in Folder: ${title}` })).toBeVisible();
  const table = page.getByRole('table', { name: 'Files' });
  await expect(table).toBeVisible();
  return table;
}

function toolbar(page: Page): Locator {
  return page.getByRole('toolbar', { name: 'File actions' });
}

/** Unlocks the private key in the 'Login Password Required' dialog and continues the pending action. */
async function unlock(page: Page, password: string, screenshot?: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Login Password Required' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Login Password').fill(password);
  if (screenshot) await shot(page, screenshot, dialog);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
}

async function expectDownload(page: Page, start: () => Promise<void>, password?: string): Promise<Download> {
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await start();
  if (password) await unlock(page, password);
  return started;
}

async function savedBytes(download: Download): Promise<Buffer> {
  return fs.readFileSync(await download.path());
}

function expectSameFiles(entries: Array<{ name: string; data: Buffer }>, expected: UploadedFile[]): void {
  expect(entries.map((entry) => entry.name).sort()).toEqual(expected.map((file) => file.zipPath).sort());
  for (const file of expected) {
    const entry = entries.find((candidate) => candidate.name === file.zipPath)!;
    expect(entry.data.length, file.zipPath).toBe(file.content.length);
    expect(sha256(entry.data), file.zipPath).toBe(sha256(file.content));
    expect(entry.data.equals(file.content), file.zipPath).toBe(true);
  }
}

const readme = Buffer.from('Sealdrop test folder\n'.repeat(40), 'utf8');
const nestedFiles = (): PlainFile[] => [
  { dir: '.', name: 'readme.txt', content: readme },
  { dir: 'docs', name: 'Quarterly report.pdf', content: randomBytes(3 * 256 * 1024 + 4321) },
  { dir: 'docs/2024', name: 'data.bin', content: randomBytes(1_300_000) },
  { dir: 'docs/2024', name: 'Grüße & Notizen.txt', content: Buffer.from('Schöne Grüße!\n'.repeat(300), 'utf8') },
  { dir: 'photos', name: 'beach.jpg', content: randomBytes(180_000) },
  { dir: 'photos', name: 'readme copy.txt', content: readme },
];

test('a nested folder uploaded through the upload page; tree, selection and filter; unlock, then one file, a directory and everything as ZIP', async ({ page }) => { // skip-reason: after an upload through the upload page in the same browser context, the admin's service-worker download never starts (issue 7/6 note); the seeded download tests below cover the download paths
  test.setTimeout(150_000);
  const title = 'Project Files 2025';
  const seeded = await seed(page, title, nestedFiles(), { throughUploadPage: 'Project' });
  const table = await openFolder(page, seeded, title);
  const bar = toolbar(page);
  await expect(bar.getByText('0 / 6 selected')).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Download All (6)' })).toBeEnabled();

  // The picked folder is the top directory; inside, directories come before files.
  await table.getByRole('button', { name: 'Expand Project', exact: true }).click();
  const rows = table.locator('tbody tr');
  await expect(rows.nth(1)).toContainText('docs');
  await expect(rows.nth(2)).toContainText('photos');
  await expect(rows.nth(3)).toContainText('readme.txt');
  await table.getByRole('button', { name: 'Expand Project/docs', exact: true }).click();
  await table.getByRole('button', { name: 'Expand Project/docs/2024' }).click();
  await table.getByRole('button', { name: 'Expand Project/photos' }).click();
  // The same content uploaded twice: exactly one of the two copies is marked (the page uploads files
  // in parallel, so which one arrives later is not fixed).
  await expect(table.locator('tr', { hasText: /readme( copy)?\.txt/ }).filter({ hasText: '(Dup)' })).toHaveCount(1);
  await expect(table.locator('tr', { hasText: 'Quarterly report.pdf' })).toContainText(`${(seeded.files[1]!.content.length / 1024).toFixed(1)} KB`);

  // Tri-state: one file of docs/2024 makes docs/2024 and docs indeterminate.
  await table.getByRole('checkbox', { name: 'Select Project/docs/2024/data.bin' }).check();
  await expect(table.getByRole('checkbox', { name: 'Select folder Project/docs/2024' })).toHaveAttribute('data-indeterminate', 'true');
  await expect(table.getByRole('checkbox', { name: 'Select folder Project/docs', exact: true })).toHaveAttribute('data-indeterminate', 'true');
  await expect(bar.getByText('1 / 6 selected')).toBeVisible();
  await table.getByRole('checkbox', { name: 'Select folder Project/docs', exact: true }).check();
  await expect(table.getByRole('checkbox', { name: 'Select folder Project/docs', exact: true })).toBeChecked();
  await expect(table.getByRole('checkbox', { name: 'Select folder Project', exact: true })).toHaveAttribute('data-indeterminate', 'true');
  await expect(bar.getByText('3 / 6 selected')).toBeVisible();
  await shot(page, '01-tree-with-selection');

  // One file: the unlock dialog comes first, then the pending download runs.
  const report = seeded.files[1]!;
  const single = await expectDownload(page, async () => {
    await table.getByRole('button', { name: 'Download Quarterly report.pdf' }).click();
    await unlock(page, seeded.admin.password, '02-unlock-dialog');
  });
  expect(single.suggestedFilename()).toBe('Quarterly report.pdf');
  const singleBytes = await savedBytes(single);
  expect(sha256(singleBytes)).toBe(sha256(report.content));
  expect(singleBytes.equals(report.content)).toBe(true);
  await expect(page.getByText('Downloaded Quarterly report.pdf.')).toBeVisible();

  // A directory: the key stays unlocked, so no dialog this time.
  const directory = await expectDownload(page, () => table.getByRole('button', { name: 'Download folder Project/docs', exact: true }).click());
  expect(directory.suggestedFilename()).toBe('Project_Files_2025_docs.zip');
  expectSameFiles(await readZip(await savedBytes(directory)), seeded.files.filter((file) => file.dir.startsWith('Project/docs')));

  // The selection (the three files of docs) as one ZIP.
  const selection = await expectDownload(page, () => bar.getByRole('button', { name: 'Download Selected' }).click());
  expect(selection.suggestedFilename()).toBe('Project_Files_2025_files.zip');
  expectSameFiles(await readZip(await savedBytes(selection)), seeded.files.filter((file) => file.dir.startsWith('Project/docs')));

  // Everything.
  const everything = await expectDownload(page, () => bar.getByRole('button', { name: 'Download All (6)' }).click());
  expect(everything.suggestedFilename()).toBe('Project_Files_2025_files.zip');
  expectSameFiles(await readZip(await savedBytes(everything)), seeded.files);

  // Every file now has a last download; the filter shows none, then all again.
  await expect(table.getByText('Never', { exact: true })).toHaveCount(0);
  await bar.getByRole('button', { name: 'Never Downloaded' }).click();
  await expect(page.getByText("No files match the 'Never Downloaded' filter.")).toBeVisible();
  await expect(bar.getByText('0 / 0 selected')).toBeVisible();
  await bar.getByRole('button', { name: 'Show All' }).click();
  await expect(bar.getByText('0 / 6 selected')).toBeVisible();
});

test('a tampered blob fails the download with the spec message and clears the unlocked key', async ({ page }) => {
  const title = 'Ledger';
  const tamperedSize = 600_001; // unique in this run: finds the blob on disk
  const seeded = await seed(page, title, [
    { dir: '.', name: 'ledger.xlsx', content: randomBytes(tamperedSize) },
    { dir: '.', name: 'intact.txt', content: Buffer.from('still fine\n'.repeat(100)) },
  ]);
  const blob = blobOfPlainSize(tamperedSize);
  const bytes = fs.readFileSync(blob);
  bytes[300_000]! ^= 0x01; // inside the second record
  fs.writeFileSync(blob, bytes);

  const table = await openFolder(page, seeded, title);
  const failed = await expectDownload(page, () => table.getByRole('button', { name: 'Download ledger.xlsx' }).click(), seeded.admin.password);
  expect(await failed.failure()).not.toBeNull();
  await expect(page.getByText(INTEGRITY_FAILURE)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Download progress' })).toBeHidden();
  await expect(table.locator('tr', { hasText: 'ledger.xlsx' })).toContainText('Never');

  // The crypto error cleared the cached private key: the next download asks for the password again.
  const intact = await expectDownload(page, () => table.getByRole('button', { name: 'Download intact.txt' }).click(), seeded.admin.password);
  expect((await savedBytes(intact)).equals(seeded.files[1]!.content)).toBe(true);
});

test('download progress while a large file streams, cancel, and the complete file on disk', async ({ page }) => {
  test.setTimeout(180_000);
  const title = 'Large files';
  const big = randomBytes(384 * 1024 * 1024 + 77);
  const seeded = await seed(page, title, [{ dir: 'video', name: 'recording.mov', content: big }]);
  const table = await openFolder(page, seeded, title);
  await table.getByRole('button', { name: 'Expand video' }).click();

  // Cancel from the app: the browser's download fails, the app says so.
  const cancelled = await expectDownload(page, () => table.getByRole('button', { name: 'Download recording.mov' }).click(), seeded.admin.password);
  const panel = page.getByRole('region', { name: 'Download progress' });
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Download cancelled.')).toBeVisible();
  expect(await cancelled.failure()).not.toBeNull();
  await expect(panel).toBeHidden();
  await expect(page.getByText('Download cancelled.')).toBeHidden({ timeout: 10_000 });

  const complete = await expectDownload(page, () => table.getByRole('button', { name: 'Download recording.mov' }).click());
  // Past the first tens of MB, so the rate and time left are steady figures.
  await expect(panel.getByTestId('download-figures')).toContainText(/^(\d{3}|[4-9]\d)\.\d MB of 384\.0 MB · [\d.]+ MB\/s · .+ left$/);
  await shot(page, '03-download-progress');
  const saved = await complete.path();
  expect(fs.statSync(saved).size).toBe(big.length);
  expect(sha256(fs.readFileSync(saved))).toBe(sha256(big));
  await expect(panel).toBeHidden();
});

test('delete selected files: confirmation, blobs removed, partial and total failures', async ({ page }) => {
  const title = 'Cleanup';
  const sizes = [1001, 1002, 1003, 1004, 1005];
  const seeded = await seed(
    page,
    title,
    sizes.map((size, i) => ({ dir: '.', name: `file-${i + 1}.bin`, content: randomBytes(size) })),
  );
  const blobs = sizes.map((size) => blobOfPlainSize(size));
  const table = await openFolder(page, seeded, title);
  const bar = toolbar(page);
  const deleteBehindTheScreen = async (fileId: number) => {
    const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
    const response = await page.request.post('/api/folders/files/delete', { data: { file_ids: [fileId] }, headers: { 'x-csrftoken': csrf } });
    expect(await response.json()).toEqual({ deleted: 1, errors: [] });
  };
  const confirmDelete = async (count: number) => {
    await bar.getByRole('button', { name: 'Delete Selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete files' });
    await expect(dialog).toContainText(`Are you sure you want to delete ${count} files?`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toBeHidden();
  };

  await expect(bar.getByRole('button', { name: 'Delete Selected' })).toBeDisabled();
  await table.getByRole('checkbox', { name: 'Select file-1.bin' }).check();
  await table.getByRole('checkbox', { name: 'Select file-2.bin' }).check();
  await confirmDelete(2);
  await expect(page.getByText('2 files deleted.')).toBeVisible();
  await expect(table.getByText('file-1.bin')).toHaveCount(0);
  await expect(bar.getByText('0 / 3 selected')).toBeVisible();
  expect(fs.existsSync(blobs[0]!) || fs.existsSync(blobs[1]!)).toBe(false);
  expect(blobs.slice(2).every((blob) => fs.existsSync(blob))).toBe(true);

  // file-3 disappears behind the screen's back: one of two fails.
  await deleteBehindTheScreen(seeded.files[2]!.id);
  await table.getByRole('checkbox', { name: 'Select file-3.bin' }).check();
  await table.getByRole('checkbox', { name: 'Select file-4.bin' }).check();
  await confirmDelete(2);
  await expect(page.getByText('Failed to delete 1 file(s). See console for details.')).toBeVisible();
  await expect(table.getByText('file-4.bin')).toHaveCount(0);
  await expect(table.getByText('file-3.bin')).toHaveCount(0);

  // All of the selection is gone already.
  await deleteBehindTheScreen(seeded.files[4]!.id);
  await table.getByRole('checkbox', { name: 'Select file-5.bin' }).check();
  await confirmDelete(1);
  await expect(page.getByText('Failed to delete any of the selected files.')).toBeVisible();
  await expect(page.getByText('This folder is empty.')).toBeVisible();
  expect(storedBlobs().filter((blob) => blobs.includes(blob.path))).toEqual([]);
  await shot(page, '04-folder-empty');
});
