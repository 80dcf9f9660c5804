// "Export Encrypted" on the admin files screen, in the real browser against the real server: a
// nested tree with non-ASCII names uploaded through the real upload page, then the export of the
// whole folder and of a selection saved by Chromium's download manager. The ZIP is read with
// yauzl; its manifest must say what the server's file records say, each blob must be a blob the
// server stores, byte for byte, and each must open with the independent node:crypto implementation
// from the admin's key backup data and login password alone (what recovery without the server does).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { cipherLength, decryptBuffer } from '../server/crypto/file-format.ts';
import { unwrapFileKey, unwrapPrivateKey } from '../server/crypto/keys.ts';
import { readExportZip, type ReadExport } from '../tests/server/export-zip.ts';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';
import { E2E_DATA_DIR } from './support/environment.mjs';
import { createFolder, giveAdminKeyPair, sha256, storedBlobs, uploadThroughPage, type PlainFile, type UploadedFile } from './support/files-seed.ts';

const SHOTS_DIR = process.env.EXPORT_SHOTS_DIR ?? '/tmp/export-shots';

async function shot(target: Page | Locator, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path: file, fullPage: true });
  else await target.screenshot({ path: file });
}

const tree = (): PlainFile[] => [
  { dir: '.', name: 'readme.txt', content: Buffer.from('Export test folder\n'.repeat(30), 'utf8') },
  { dir: 'docs', name: 'Quarterly report.pdf', content: randomBytes(300_001) },
  { dir: 'docs/2024', name: 'Grüße & Notizen.txt', content: Buffer.from('Schöne Grüße!\n'.repeat(200), 'utf8') },
  { dir: 'docs/2024', name: '日本語の報告書.bin', content: randomBytes(70_003) },
  { dir: 'photos/été', name: 'plage 🌊.jpg', content: randomBytes(120_007) },
];

interface ListedFile {
  id: number;
  original_filename: string;
  relative_path: string;
  file_size: number;
  file_hash: string;
  encrypted_key: string;
  encryption_iv: string;
  upload_time: string;
}

async function saveExport(page: Page, button: Locator): Promise<{ download: Download; zip: ReadExport }> {
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await button.click();
  const download = await started;
  expect(await download.failure()).toBeNull();
  return { download, zip: await readExportZip(fs.readFileSync(await download.path())) };
}

/** Checks an export against the server's records, its stored blobs and the original plaintexts. */
async function expectExportOf(page: Page, zip: ReadExport, folder: { id: number; title: string }, expected: UploadedFile[], password: string): Promise<void> {
  const listed = (await (await page.request.get(`/api/folders/${folder.id}/files`)).json()) as ListedFile[];
  const records = listed.filter((record) => expected.some((file) => file.id === record.id));
  expect(records).toHaveLength(expected.length);

  expect(zip.entries.map((entry) => entry.name)).toEqual(['manifest.json', ...records.map((record) => `files/${record.id}.sdrp`)]);
  expect(zip.entries.every((entry) => entry.compressionMethod === 0)).toBe(true);
  expect(zip.manifest).toMatchObject({ format: 'sealdrop-export', format_version: 1, folder });
  expect(zip.manifest.files).toEqual(
    records.map((record) => ({
      id: record.id,
      blob: `files/${record.id}.sdrp`,
      relative_path: record.relative_path,
      name: record.original_filename,
      size: record.file_size,
      sha256: record.file_hash,
      encrypted_key: record.encrypted_key,
      iv: record.encryption_iv,
      upload_time: record.upload_time,
    })),
  );

  const stored = storedBlobs();
  const keyData = await (await page.request.get('/api/auth/users/me/encrypted-key')).json();
  const privateKey = unwrapPrivateKey(keyData, password);
  for (const file of expected) {
    const entry = zip.manifest.files.find((candidate) => candidate.id === file.id)!;
    expect([entry.relative_path, entry.name]).toEqual([file.dir, file.name]);
    const blob = zip.data(entry.blob);
    // Byte for byte one of the server's stored blobs (found by length, then compared).
    expect(blob.length, file.name).toBe(cipherLength(file.content.length));
    const twins = stored.filter((candidate) => candidate.size === blob.length && fs.readFileSync(candidate.path).equals(blob));
    expect(twins, file.name).toHaveLength(1);
    // And it opens with the key backup data and the login password alone.
    const plain = decryptBuffer(unwrapFileKey(privateKey, entry.encrypted_key), Buffer.from(entry.iv, 'base64'), blob);
    expect(plain.equals(file.content), file.name).toBe(true);
    expect(sha256(plain)).toBe(entry.sha256);
    expect(entry.size).toBe(file.content.length);
  }
}

/** Runs a repository command as an operator would, on a machine with the export and nothing else running. */
function run(script: string, args: string[], input: string, env: Record<string, string> = {}): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    input,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The admin's key backup file, as the profile's "download backup" step writes it. */
async function writeKeyBackup(page: Page, admin: AdminAccount, dir: string): Promise<string> {
  const keyData = (await (await page.request.get('/api/auth/users/me/encrypted-key')).json()) as { encryptedPrivateKey: string; kdfSalt: string };
  const file = path.join(dir, `private-key-backup-${admin.username}.json`);
  const backup = { description: 'Sealdrop private key backup', username: admin.username, ...keyData, backupDate: new Date().toISOString() };
  fs.writeFileSync(file, JSON.stringify(backup));
  return file;
}

/** `npm run recover` on an export; every original comes back byte for byte under its path, nothing else. */
function expectRecovered(exportPath: string, backup: string, password: string, expected: PlainFile[], into: string): void {
  const recovered = run('server/recover.ts', ['--backup', backup, '--password-stdin', exportPath, into], `${password}\n`);
  expect(recovered.output).toContain(`Recovered ${expected.length} of ${expected.length} files`);
  expect(recovered.status, recovered.output).toBe(0);
  for (const file of expected) {
    const target = path.join(into, ...file.dir.split('/').filter((segment) => segment !== '.'), file.name);
    expect(fs.readFileSync(target).equals(file.content), target).toBe(true);
  }
}

test('Export Encrypted saves the whole folder, then a selection, as ZIPs of the stored ciphertext and a manifest', async ({ page }) => {
  test.setTimeout(150_000);
  const admin = await createAdmin('export');
  await signIn(page, admin);
  await giveAdminKeyPair(page, admin.password);
  const title = 'Export Ü 2025';
  const folder = await createFolder(page, title);
  const uploaded = await uploadThroughPage(page, folder, 'Project', tree());

  await page.goto(`/folders/view/${folder.id}`);
  await expect(page.getByRole('heading', { name: `Files in Folder: ${title}` })).toBeVisible();
  const bar = page.getByRole('toolbar', { name: 'File actions' });
  const exportAll = bar.getByRole('button', { name: 'Export Encrypted', exact: true });
  await expect(exportAll).toBeEnabled();
  await shot(page, '01-files-screen-with-export');
  await shot(bar, '02-toolbar');

  // The whole folder: no unlock dialog, no decryption; the browser saves the server's ZIP.
  const whole = await saveExport(page, exportAll);
  expect(whole.download.suggestedFilename()).toBe(`${title}-export.zip`);
  await expect(page.getByRole('dialog', { name: 'Login Password Required' })).toBeHidden();
  await expect(page.getByText('Exporting 5 files encrypted: your browser saves the ZIP (ciphertext and manifest).')).toBeVisible();
  await expectExportOf(page, whole.zip, { id: folder.id, title }, uploaded, admin.password);

  // Recovery without the server: the admin holds the ZIP the browser saved and the key backup file.
  const offline = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-recovery-'));
  try {
    const backup = await writeKeyBackup(page, admin, offline);
    const zipPath = path.join(offline, 'export.zip');
    await whole.download.saveAs(zipPath);
    expectRecovered(zipPath, backup, admin.password, uploaded, path.join(offline, 'from-zip'));

    // The operator's export, straight from the database and the blob store, recovers the same.
    const exportDir = path.join(offline, 'cli-export');
    const exported = run('server/cli.ts', ['export-folder', String(folder.id), exportDir], '', { DATA_DIR: E2E_DATA_DIR });
    expect(exported.status, exported.output).toBe(0);
    expectRecovered(exportDir, backup, admin.password, uploaded, path.join(offline, 'from-cli'));

    // A wrong password is one line and recovers nothing.
    const wrong = run('server/recover.ts', ['--backup', backup, '--password-stdin', zipPath, path.join(offline, 'wrong')], 'not the password\n');
    expect(wrong.status).toBe(3);
    expect(wrong.output.trim().split('\n')).toHaveLength(1);
  } finally {
    fs.rmSync(offline, { recursive: true, force: true });
  }

  // A selection: the docs directory (three files in two levels).
  const table = page.getByRole('table', { name: 'Files' });
  await table.getByRole('button', { name: 'Expand Project', exact: true }).click();
  await table.getByRole('checkbox', { name: 'Select folder Project/docs', exact: true }).check();
  const exportSelected = bar.getByRole('button', { name: 'Export Encrypted (3 selected)' });
  await expect(exportSelected).toBeVisible();
  await shot(bar, '03-toolbar-with-selection');
  const selection = await saveExport(page, exportSelected);
  expect(selection.download.suggestedFilename()).toBe(`${title}-export.zip`);
  await expectExportOf(page, selection.zip, { id: folder.id, title }, uploaded.filter((file) => file.dir.startsWith('Project/docs')), admin.password);

  // An export is not a download: every file still shows 'Never'.
  await page.reload();
  await page.getByRole('table', { name: 'Files' }).getByRole('button', { name: 'Expand Project', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Files' }).getByText('Never', { exact: true })).not.toHaveCount(0);
  const listed = (await (await page.request.get(`/api/folders/${folder.id}/files`)).json()) as Array<{ last_downloaded_admin: string | null }>;
  expect(listed.every((file) => file.last_downloaded_admin === null)).toBe(true);
});
