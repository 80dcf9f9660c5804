// Direct to disk (docs/download.md, "Direct to disk"): where the browser has the File System Access
// API, the admin's single file goes through the save dialog, and a directory, a selection or
// Download All may be saved as real files and folders into a picked folder; the recipient's page
// has the same. Only the pickers are replaced (e2e/support/fileSystemAccess.ts): they answer with
// origin-private file system handles, whose writables are the real ones. The bytes are read back
// from OPFS in the page and compared by SHA-256 with the originals; a cancelled dialog does nothing;
// the ZIP stays available beside the folder and still goes through the service worker. A page
// closed in the middle of a file leaves nothing under that file's real name (issue 26).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readZip } from '../tests/support/zip.ts';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';
import { cancelNextPickers, pickedPaths, readOpfsTree, reusePickedDirectory, SAVED_FILES_DIR, withOpfsPickers, type OpfsFile } from './support/fileSystemAccess.ts';
import { createFolder, giveAdminKeyPair, sha256, uploadFiles, type PlainFile, type UploadedFile } from './support/files-seed.ts';
import { linkWithFiles } from './support/link-seed.ts';

const SHOTS_DIR = process.env.DIRECT_SHOTS_DIR ?? '/tmp/direct-download-shots';
const RECORD = 256 * 1024;

async function shot(page: Page, name: string, target?: Locator): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  if (target) await target.screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

/** Fails the test if the browser's download manager is used: the direct path must not be. */
function forbidBrowserDownloads(page: Page): { allow(): void } {
  let allowed = false;
  page.on('download', (download) => {
    if (!allowed) throw new Error(`unexpected browser download of ${download.suggestedFilename()}`);
  });
  return { allow: () => (allowed = true) };
}

const tree = (): PlainFile[] => [
  { dir: '.', name: 'readme.txt', content: Buffer.from('Sealdrop direct download\n'.repeat(40)) },
  // Several records plus a partial last one, so writes cross record boundaries.
  { dir: 'docs', name: 'Quarterly report.pdf', content: randomBytes(5 * RECORD + 12_345) },
  { dir: 'docs/2024', name: 'data.bin', content: randomBytes(3 * 1024 * 1024 + 7) },
  { dir: 'docs/2024', name: 'Grüße & Notizen.txt', content: Buffer.from('Schöne Grüße!\n'.repeat(300), 'utf8') },
  { dir: 'photos/2023/summer', name: 'beach.jpg', content: randomBytes(180_000) },
  { dir: 'photos', name: 'empty.txt', content: Buffer.alloc(0) },
];

interface Seeded {
  admin: AdminAccount;
  folderId: number;
  files: UploadedFile[];
}

async function seedAdmin(page: Page, title: string, files: PlainFile[]): Promise<Seeded> {
  const admin = await createAdmin('direct');
  await signIn(page, admin);
  const publicKey = await giveAdminKeyPair(page, admin.password);
  const folder = await createFolder(page, title);
  return { admin, folderId: folder.id, files: await uploadFiles(folder.link_token, publicKey, files) };
}

async function unlock(page: Page, password: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Login Password Required' });
  await dialog.getByLabel('Login Password').fill(password);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
}

function expectSameTree(saved: Array<{ path: string; size: number; sha256: string }>, expected: Array<{ path: string; content: Buffer }>): void {
  expect(saved.map((file) => file.path)).toEqual(expected.map((file) => file.path).sort());
  for (const file of expected) {
    const found = saved.find((candidate) => candidate.path === file.path)!;
    expect(found.size, file.path).toBe(file.content.length);
    expect(found.sha256, file.path).toBe(sha256(file.content));
  }
}

test('admin: a file through the save dialog, a cancelled dialog, and a folder tree saved as real folders', async ({ page }) => {
  test.setTimeout(150_000);
  await withOpfsPickers(page);
  const downloads = forbidBrowserDownloads(page);
  const title = 'Direct Files';
  const seeded = await seedAdmin(page, title, tree());
  await page.goto(`/folders/view/${seeded.folderId}`);
  const table = page.getByRole('table', { name: 'Files' });
  await expect(table).toBeVisible();
  await table.getByRole('button', { name: 'Expand docs', exact: true }).click();

  // One file: the unlock dialog, then the save dialog; the file lands where it was saved.
  const report = seeded.files[1]!;
  await table.getByRole('button', { name: 'Download Quarterly report.pdf' }).click();
  await unlock(page, seeded.admin.password);
  await expect(page.getByText('Downloaded Quarterly report.pdf.')).toBeVisible();
  expect(await pickedPaths(page)).toEqual([`${SAVED_FILES_DIR}/Quarterly report.pdf`]);
  expectSameTree(await readOpfsTree(page, SAVED_FILES_DIR), [{ path: 'Quarterly report.pdf', content: report.content }]);

  // The save dialog cancelled: nothing runs, nothing is said, nothing is written.
  await cancelNextPickers(page);
  await table.getByRole('button', { name: 'Download readme.txt' }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __opfsPickers: { cancelNext: number } }).__opfsPickers.cancelNext)).toBe(0);
  await expect(page.getByRole('region', { name: 'Download progress' })).toBeHidden();
  await expect(page.locator('.notification-message')).toHaveCount(0, { timeout: 4000 });
  expect((await readOpfsTree(page, SAVED_FILES_DIR)).map((file) => file.path)).toEqual(['Quarterly report.pdf']);

  // Everything: the choice, then the folder dialog; the tree arrives as files and subfolders.
  await page.getByRole('button', { name: 'Download All (6)' }).click();
  const choice = page.getByRole('dialog', { name: 'Download 6 files' });
  await expect(choice).toBeVisible();
  await expect(choice.getByRole('button', { name: 'Save to Folder...' })).toBeVisible();
  await expect(choice.getByRole('button', { name: 'Download as ZIP' })).toContainText('Direct_Files_files.zip');
  await shot(page, 'admin-save-choice', choice);
  await shot(page, 'admin-save-choice-page');
  await choice.getByRole('button', { name: 'Save to Folder...' }).click();
  await expect(choice).toBeHidden();
  const picked = await expect.poll(async () => (await pickedPaths(page)).length).toBe(2).then(async () => (await pickedPaths(page))[1]!);
  await expect(page.getByText(`Saved 6 files to "${picked}".`)).toBeVisible({ timeout: 30_000 });
  const expected = seeded.files.map((file) => ({ path: file.zipPath, content: file.content }));
  expectSameTree(await readOpfsTree(page, picked), expected);

  // The same directory again: nothing there is overwritten, the new copies are numbered.
  await reusePickedDirectory(page, picked);
  await table.getByRole('button', { name: 'Download folder docs', exact: true }).click();
  await page.getByRole('dialog', { name: 'Download 3 files' }).getByRole('button', { name: 'Save to Folder...' }).click();
  await expect(page.getByText(`Saved 3 files to "${picked}".`)).toBeVisible({ timeout: 30_000 });
  const numbered = (name: string) => name.replace(/(\.[^./]+)?$/, ' (2)$1');
  const docs = seeded.files.filter((file) => file.dir.startsWith('docs'));
  expectSameTree(await readOpfsTree(page, picked), [...expected, ...docs.map((file) => ({ path: numbered(file.zipPath), content: file.content }))]);

  // Cancelling the choice does nothing; the ZIP is still there and still the service worker's.
  await table.getByRole('button', { name: 'Download folder docs', exact: true }).click();
  await page.getByRole('dialog', { name: 'Download 3 files' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog', { name: 'Download 3 files' })).toBeHidden();
  await expect(page.getByRole('region', { name: 'Download progress' })).toBeHidden();
  downloads.allow();
  const zipped = page.waitForEvent('download');
  await table.getByRole('button', { name: 'Download folder docs', exact: true }).click();
  await page.getByRole('dialog', { name: 'Download 3 files' }).getByRole('button', { name: 'Download as ZIP' }).click();
  const zip = await zipped;
  expect(zip.suggestedFilename()).toBe('Direct_Files_docs.zip');
  const entries = await readZip(fs.readFileSync(await zip.path()));
  expect(entries.map((entry) => entry.name).sort()).toEqual(docs.map((file) => file.zipPath).sort());
  for (const file of docs) expect(sha256(entries.find((entry) => entry.name === file.zipPath)!.data), file.zipPath).toBe(sha256(file.content));
});

test('recipient: a file through the save dialog, a cancelled dialog, and every file saved into a folder', async ({ browser }) => {
  test.setTimeout(120_000);
  const { url, files } = await linkWithFiles(browser, [
    { name: 'Contract.pdf', content: randomBytes(4 * RECORD + 999) },
    { name: 'Grüße & Notizen "Q3".txt', content: Buffer.from('Hallo Welt, schöne Grüße!\n'.repeat(200), 'utf8') },
    { name: 'photo.jpg', content: randomBytes(700_000) },
  ]);
  const context = await browser.newContext();
  await withOpfsPickers(context);
  const page = await context.newPage();
  forbidBrowserDownloads(page);
  await page.goto(url);
  await expect(page.getByText('Files ready for download:')).toBeVisible();
  const row = (name: string) => page.getByRole('list', { name: 'Shared files' }).getByRole('listitem', { name, exact: true });

  const contract = files[0]!;
  await row(contract.name).getByRole('button').click();
  await expect(row(contract.name).getByRole('button', { name: `Done! ${contract.name}` })).toBeVisible();
  expectSameTree(await readOpfsTree(page, SAVED_FILES_DIR), [{ path: contract.name, content: contract.content }]);

  // Cancelled: the button never leaves its idle label, nothing is written.
  await cancelNextPickers(page);
  await row('photo.jpg').getByRole('button').click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __opfsPickers: { cancelNext: number } }).__opfsPickers.cancelNext)).toBe(0);
  await expect(row('photo.jpg').getByRole('button', { name: 'Download photo.jpg' })).toBeVisible();
  expect((await readOpfsTree(page, SAVED_FILES_DIR)).map((file) => file.path)).toEqual([contract.name]);

  // Every file into a picked folder, beside the ZIP.
  await expect(page.getByRole('button', { name: 'Download All as ZIP' })).toBeVisible();
  await shot(page, 'recipient-save-all-to-folder');
  await page.getByRole('button', { name: 'Save All to Folder...' }).click();
  await expect(page.getByText('Download complete.')).toBeVisible({ timeout: 30_000 });
  const picked = (await pickedPaths(page)).at(-1)!;
  // The save keeps the names a desktop accepts: '"' is not one of them.
  expectSameTree(
    await readOpfsTree(page, picked),
    files.map((file) => ({ path: file.name.replace(/"/g, '_'), content: file.content })),
  );
  await context.close();
});

/** Whether `files` holds nothing but empty entries among the `.part` names `allowed` (perhaps none). */
function onlyEmptyParts(files: readonly OpfsFile[], allowed: readonly string[]): boolean {
  return files.every((file) => allowed.includes(file.path) && file.size === 0);
}

test('a page closed in the middle of a file leaves nothing under its real name: the saved file and a folder\'s file are "<name>.part" until complete', async ({ browser }) => {
  test.setTimeout(150_000);
  const context = await browser.newContext();
  await withOpfsPickers(context);
  const page = await context.newPage();
  forbidBrowserDownloads(page);
  const seeded = await seedAdmin(page, 'Direct Interrupted', [
    { dir: '.', name: 'first.txt', content: Buffer.from('complete before the page closed\n'.repeat(20)) },
    { dir: '.', name: 'second.bin', content: randomBytes(3 * RECORD + 5) },
  ]);
  const [first, second] = seeded.files;
  // The server never answers for second.bin: its file is open, not complete, when the page goes.
  await context.route(`**/api/folders/download/${second!.id}`, () => undefined);
  const openFiles = async () => {
    const opened = await context.newPage();
    forbidBrowserDownloads(opened);
    await opened.goto(`/folders/view/${seeded.folderId}`);
    await expect(opened.getByRole('table', { name: 'Files' })).toBeVisible();
    return opened;
  };

  // One file through the save dialog.
  const single = await openFiles();
  await page.close();
  await single.getByRole('table', { name: 'Files' }).getByRole('button', { name: 'Download second.bin' }).click();
  await unlock(single, seeded.admin.password);
  await expect.poll(() => readOpfsTree(single, SAVED_FILES_DIR).then((files) => files.map((file) => file.path))).toEqual(['second.bin.part']);
  await single.close();

  // What the closed page left: its worker removes the `.part` entry if it still sees the failure
  // (partialFile.ts), so the entry may be gone; nothing is ever under the real name.
  const tree = await openFiles();
  expect(onlyEmptyParts(await readOpfsTree(tree, SAVED_FILES_DIR), ['second.bin.part'])).toBe(true);

  // Everything into a folder: first.txt is complete, second.bin is being fetched.
  await tree.getByRole('button', { name: 'Download All (2)' }).click();
  await unlock(tree, seeded.admin.password);
  await tree.getByRole('dialog', { name: 'Download 2 files' }).getByRole('button', { name: 'Save to Folder...' }).click();
  const picked = await expect.poll(async () => (await pickedPaths(tree)).length).toBe(1).then(async () => (await pickedPaths(tree))[0]!);
  await expect.poll(() => readOpfsTree(tree, picked).then((files) => files.map((file) => file.path))).toEqual(['first.txt', 'second.bin.part']);
  await tree.close();

  const after = await openFiles();
  const saved = await readOpfsTree(after, picked);
  expect(saved[0]).toMatchObject({ path: 'first.txt', sha256: sha256(first!.content) });
  expect(onlyEmptyParts(saved.slice(1), ['second.bin.part'])).toBe(true);
  await context.close();
});

