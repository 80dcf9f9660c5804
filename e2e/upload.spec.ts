// The public upload page (/upload/{link_token}) in the real browser against the real server, with
// no mocks: a nested folder with unicode and quote characters picked through the folder input,
// then every stored blob decrypted here with the admin's private key by the independent
// node:crypto implementation (server/crypto) and compared with the originals; each of the link's
// gates (password, e-mail code read from the server's outbox, allowed-address list) with the
// spec's messages; a server killed in the middle of a large file and started again on the same
// data, the page resuming the tus upload by itself; the page's crypto workers stopped in the
// middle of a large file, the file failing with its own error and Retry sending it to the end; and
// the page's own refusals (content that does not match its extension, a file over 5120 MB).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { cipherLength, decryptBuffer, unwrapFileKey, type NodeKeyPair } from '../server/crypto/index.ts';
import type { FileRecord } from '../contract/files.ts';
import type { Folder } from '../contract/folders.ts';
import { AdminClient, type FolderOptions } from './support/api-client.ts';
import { E2E_BASE_URL, E2E_DATA_DIR } from './support/environment.mjs';
import { ServerProcess } from './support/server-process.ts';
import { codeFromOutbox } from './support/outbox.ts';

const SHOTS_DIR = process.env.UPLOAD_SHOTS_DIR ?? '/tmp/upload-shots';
const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The restart test's own server (ports 8420-8429 are this spec's). */
const RESTART_PORT = 8420;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * How the page's small files went, read from its performance marks and its upload spool: files in
 * groups sent from spool files, groups the spool refused (sent from memory), group files still there.
 */
function smallFileSpool(page: Page): Promise<{ filesSpooled: number; groupsFromMemory: number; groupFilesLeft: string[] }> {
  return page.evaluate(async () => {
    const marks = performance.getEntriesByType('mark') as PerformanceMark[];
    const filesSpooled = marks.filter((mark) => mark.name === 'sealdrop:small-files-spooled').reduce((sum, mark) => sum + (mark.detail as { files: number }).files, 0);
    const groupsFromMemory = marks.filter((mark) => mark.name === 'sealdrop:spool-stalled' || mark.name === 'sealdrop:spool-failed').length;
    const groupFilesLeft: string[] = [];
    const spool = await (await navigator.storage.getDirectory()).getDirectoryHandle('upload-spool');
    for await (const [pageId, entry] of (spool as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
      if (entry.kind !== 'directory') continue;
      for await (const name of (entry as unknown as { keys(): AsyncIterable<string> }).keys()) if (name.startsWith('small-')) groupFilesLeft.push(`${pageId}/${name}`);
    }
    return { filesSpooled, groupsFromMemory, groupFilesLeft };
  });
}
const allReceived = (n: number) => `Upload successful! All ${n} processed files received.`;

interface PlainFile {
  /** Directory inside the picked folder, '/'-separated ('.' for its root). */
  dir: string;
  name: string;
  content: Buffer;
}

// ------------------------------------------------------------------ helpers

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** A temporary directory removed after `use`, whatever happens inside. */
async function withTempDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-upload-'));
  try {
    return await use(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `files` under `root` (created), as an uploader's folder on disk. */
function writeTree(root: string, files: readonly PlainFile[]): void {
  for (const file of files) {
    const dir = file.dir === '.' ? root : path.join(root, ...file.dir.split('/'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, file.name), file.content);
  }
}

/** A fresh admin of the shared suite server, with a key pair whose private key stays here. */
function sharedServerAdmin(prefix: string): Promise<{ admin: AdminClient; keys: NodeKeyPair }> {
  return AdminClient.create(E2E_BASE_URL, E2E_DATA_DIR, prefix);
}

async function folderOf(admin: AdminClient, options: FolderOptions): Promise<Folder> {
  // The content check is off unless a test is about it: random bytes pass it anyway, but a test
  // should not depend on the server's default.
  return admin.createFolder({ perform_mime_check: false, ...options });
}

async function openUploadPage(page: Page, folder: Folder, baseUrl = E2E_BASE_URL): Promise<void> {
  await page.goto(`${baseUrl}/upload/${folder.link_token}`);
  await expect(page.getByRole('heading', { name: `Upload Files for "${folder.title}"` })).toBeVisible();
}

/** Step 4: the drop area accepts files. */
async function expectReadyToUpload(page: Page): Promise<void> {
  await expect(page.getByText('Drag and drop files or folders here')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Select Folder' })).toBeEnabled();
}

function queueRow(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Files to upload' }).getByRole('listitem', { name, exact: true });
}

/** Picks single files with 'Select Files' and uploads them; waits for the spec's success message. */
async function uploadFilesThroughPage(page: Page, paths: string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(paths);
  await page.getByRole('button', { name: `Upload ${paths.length} file${paths.length === 1 ? '' : 's'}` }).click();
  await expect(page.getByText(allReceived(paths.length))).toBeVisible({ timeout: 60_000 });
}

/** The stored ciphertext of a record, decrypted with the admin's private key by node:crypto. */
async function decryptStored(admin: AdminClient, keys: NodeKeyPair, record: FileRecord): Promise<Buffer> {
  const response = await admin.downloadCiphertext(record.id);
  expect(response.headers.get('x-encryption-iv')).toBe(record.encryption_iv);
  const sealed = Buffer.from(await response.arrayBuffer());
  const fileKey = unwrapFileKey(keys.privateKey, record.encrypted_key);
  return decryptBuffer(fileKey, Buffer.from(record.encryption_iv, 'base64'), sealed);
}

/** Every file of the folder decrypts to its original: bytes, SHA-256, the stored hash and size. */
async function expectStoredExactly(admin: AdminClient, keys: NodeKeyPair, folderId: number, expected: ReadonlyArray<{ relativePath: string; name: string; content: Buffer }>): Promise<FileRecord[]> {
  const records = await admin.listFiles(folderId);
  expect(records.map((r) => `${r.relative_path}/${r.original_filename}`).sort()).toEqual(expected.map((f) => `${f.relativePath}/${f.name}`).sort());
  for (const file of expected) {
    const label = `${file.relativePath}/${file.name}`;
    const record = records.find((r) => r.relative_path === file.relativePath && r.original_filename === file.name)!;
    expect(record.file_size, label).toBe(file.content.length);
    expect(record.file_hash, label).toBe(sha256(file.content));
    // stored_filename is '<upload id>/<directories>/<name>' (spec section 3).
    expect(record.stored_filename.slice(record.stored_filename.indexOf('/') + 1), label).toBe(file.relativePath === '.' ? file.name : label);
    const plain = await decryptStored(admin, keys, record);
    expect(plain.length, label).toBe(file.content.length);
    expect(sha256(plain), label).toBe(sha256(file.content));
    expect(plain.equals(file.content), label).toBe(true);
  }
  return records;
}

function mailsTo(dataDir: string, email: string): number {
  const outbox = path.join(dataDir, 'outbox');
  if (!fs.existsSync(outbox)) return 0;
  return fs.readdirSync(outbox).filter((name) => name.endsWith('.eml') && fs.readFileSync(path.join(outbox, name), 'utf8').includes(`To: ${email}`)).length;
}

/** A six-digit code that is not `code`. */
function otherCode(code: string): string {
  return `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`;
}

// ------------------------------------------------------------------ tests

test('a nested folder with unicode and quote characters, picked as a folder, stored exactly: every blob decrypts to the original', async ({ page }) => {
  test.setTimeout(120_000);
  const { admin, keys } = await sharedServerAdmin('upload-tree');
  const folder = await folderOf(admin, { title: 'Einsendungen "Q3" & Grüße' });
  const rootName = `Abgabe "final" & 'v2' Ünï`;
  // An NFD name (e + combining acute) as a Mac writes it: the server stores names as NFC, and the
  // page must still match the server's answer to the file it sent.
  const nfdName = 'Cafe\u0301 menu.txt';
  const files: PlainFile[] = [
    { dir: '.', name: `Grüße "quoted" & 'single'.txt`, content: Buffer.from('Schöne Grüße, "zitiert" & \'einfach\'\n'.repeat(50), 'utf8') },
    { dir: '.', name: 'leer.txt', content: Buffer.alloc(0) },
    { dir: 'Ünïcode dir', name: '日本語 ファイル.txt', content: Buffer.from('こんにちは世界\n'.repeat(200), 'utf8') },
    { dir: 'Ünïcode dir/sub', name: 'naïve café #1 (copy).bin', content: randomBytes(300_001) },
    { dir: 'Ünïcode dir/sub', name: nfdName, content: Buffer.from('crème brûlée\n', 'utf8') },
    { dir: `Ünïcode dir/"dq" & 'sq'`, name: 'x.bin', content: randomBytes(1_234) },
    // Over 8 MiB: these go through the tus lane (names travel as tus metadata), two at a time, so
    // on a two-worker pool each is hashed beside its own encryption (engine/uploadLimits.ts).
    { dir: 'Ünïcode dir/sub', name: `Größe "groß" 'tus'.bin`, content: randomBytes(9 * 1024 * 1024 + 17) },
    { dir: '.', name: 'zweite große Datei.bin', content: randomBytes(12 * 1024 * 1024 + 5) },
  ];
  await openUploadPage(page, folder);
  await expectReadyToUpload(page);
  await withTempDir(async (base) => {
    writeTree(path.join(base, rootName), files);
    await page.getByTestId('folder-input').setInputFiles(path.join(base, rootName));
    await expect(page.getByRole('heading', { name: `Files (${files.length})` })).toBeVisible();
    await page.getByRole('button', { name: `Upload ${files.length} files` }).click();
    await expect(page.getByText(allReceived(files.length))).toBeVisible({ timeout: 60_000 });
  });
  // The small files went through the upload spool (workers/small-file-spool.ts): every one of
  // them in a group the worker wrote to a spool file, none sent from memory, and no group's file
  // left behind once its batch was answered.
  const smallFiles = files.filter((file) => file.content.length <= 8 * 1024 * 1024).length;
  await expect.poll(() => smallFileSpool(page)).toEqual({ filesSpooled: smallFiles, groupsFromMemory: 0, groupFilesLeft: [] });
  // Every row succeeded (none 'unreported'), then the rows leave the list.
  await expect(page.getByTestId('queue-summary')).toHaveText(`${files.length} uploaded`);
  await expect(page.getByRole('list', { name: 'Files to upload' }).getByRole('listitem')).toHaveCount(0, { timeout: 15_000 });

  await expectStoredExactly(
    admin,
    keys,
    folder.id,
    files.map((file) => ({
      relativePath: (file.dir === '.' ? rootName : `${rootName}/${file.dir}`).normalize('NFC'),
      name: file.name.normalize('NFC'),
      content: file.content,
    })),
  );
});

test('link password: empty and wrong passwords keep the gate with the spec texts, the right one opens the upload', async ({ page }) => {
  const { admin, keys } = await sharedServerAdmin('upload-pw');
  const password = 'Sonnenblume25-417';
  const folder = await folderOf(admin, { title: 'Password gate', link_password: password });
  await openUploadPage(page, folder);
  const gate = page.getByRole('form', { name: 'Link password' });
  const field = gate.getByLabel('Link password');
  const continueButton = gate.getByRole('button', { name: 'Continue' });

  await continueButton.click();
  await expect(gate.getByRole('alert')).toHaveText('Link password required.');

  await field.fill(`${password}x`);
  await continueButton.click();
  await expect(gate.getByRole('alert')).toHaveText('Incorrect password provided.');
  await expect(page.getByText('Drag and drop files or folders here')).toBeHidden();

  await field.fill(password);
  await continueButton.click();
  await expect(gate).toBeHidden();
  await expectReadyToUpload(page);
  const content = randomBytes(40_000);
  await withTempDir(async (dir) => {
    fs.writeFileSync(path.join(dir, 'behind the password.bin'), content);
    await uploadFilesThroughPage(page, [path.join(dir, 'behind the password.bin')]);
  });
  await expectStoredExactly(admin, keys, folder.id, [{ relativePath: '.', name: 'behind the password.bin', content }]);
});

test('e-mail verification: the code from the outbox; a wrong code is refused with the spec text, the right one opens the upload', async ({ page }) => {
  const { admin, keys } = await sharedServerAdmin('upload-mail');
  const folder = await folderOf(admin, { title: 'Mail gate', require_email_verification: true });
  const email = `uploader-${randomBytes(4).toString('hex')}@example.com`;
  await openUploadPage(page, folder);
  const emailGate = page.getByRole('form', { name: 'E-mail verification' });
  await expect(emailGate.getByText('Only specific email addresses are allowed for this link.')).toBeHidden();

  await emailGate.getByLabel('Your e-mail address').fill('not-an-address');
  await emailGate.getByRole('button', { name: 'Send Code' }).click();
  await expect(emailGate.getByRole('alert')).toHaveText('Enter a valid e-mail address.');

  await emailGate.getByLabel('Your e-mail address').fill(email);
  await emailGate.getByRole('button', { name: 'Send Code' }).click();
  await expect(page.getByText(`Verification code sent to ${email}.`)).toBeVisible();
  const codeGate = page.getByRole('form', { name: 'Verification code' });
  await expect(codeGate).toContainText(`We sent a 6-digit code to ${email}.`);
  const code = await codeFromOutbox(E2E_DATA_DIR, email);

  // The verify button waits for six characters.
  const codeField = codeGate.getByLabel('Verification code');
  const verify = codeGate.getByRole('button', { name: 'Verify Code' });
  await codeField.fill(code.slice(0, 5));
  await expect(verify).toBeDisabled();

  await codeField.fill(otherCode(code));
  await verify.click();
  await expect(codeGate.getByRole('alert')).toHaveText('Invalid or expired verification code.');
  await expect(codeGate).toBeVisible();

  await codeField.fill(code);
  await verify.click();
  await expect(codeGate).toBeHidden();
  await expectReadyToUpload(page);
  const content = Buffer.from('sent by a verified address\n', 'utf8');
  await withTempDir(async (dir) => {
    fs.writeFileSync(path.join(dir, 'verified.txt'), content);
    await uploadFilesThroughPage(page, [path.join(dir, 'verified.txt')]);
  });
  await expectStoredExactly(admin, keys, folder.id, [{ relativePath: '.', name: 'verified.txt', content }]);
});

test('an allowed-address list without the address: the note, the refusal, no mail sent, no way on', async ({ page }) => {
  const { admin } = await sharedServerAdmin('upload-list');
  const folder = await folderOf(admin, { title: 'Listed only', require_email_verification: true, allowed_emails: ['partner@example.org'] });
  const outsider = `outsider-${randomBytes(4).toString('hex')}@example.com`;
  await openUploadPage(page, folder);
  const emailGate = page.getByRole('form', { name: 'E-mail verification' });
  await expect(emailGate.getByText('Only specific email addresses are allowed for this link.')).toBeVisible();

  await emailGate.getByLabel('Your e-mail address').fill(outsider);
  await emailGate.getByRole('button', { name: 'Send Code' }).click();
  // 403 with a detail: the page shows the server's detail (spec section 8).
  await expect(emailGate.getByRole('alert')).toHaveText(['Only specific email addresses are allowed for this link.', 'This e-mail address is not allowed to upload to this link.']);
  await expect(page.getByRole('form', { name: 'Verification code' })).toBeHidden();
  await expect(page.getByText('Drag and drop files or folders here')).toBeHidden();
  expect(mailsTo(E2E_DATA_DIR, outsider)).toBe(0);
});

test('the page refuses content that does not match its extension and a file over 5120 MB; the rest is uploaded', async ({ page }) => {
  const { admin, keys } = await sharedServerAdmin('upload-reject');
  const folder = await folderOf(admin, { title: 'Checked types', perform_mime_check: true });
  await openUploadPage(page, folder);
  await expectReadyToUpload(page);
  const good = Buffer.from('%PDF-1.7\n% a real PDF header\n', 'ascii');
  await withTempDir(async (dir) => {
    // Over the limit without using the disk: a sparse file; the page refuses it by its size alone.
    const huge = path.join(dir, 'huge.iso');
    fs.closeSync(fs.openSync(huge, 'w'));
    fs.truncateSync(huge, 5121 * 1024 * 1024);
    await page.getByTestId('file-input').setInputFiles(huge);
    await expect(page.getByText('Files too large (max 5120 MB): huge.iso (5121.00 MB)')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Files to upload' })).toBeHidden();

    fs.writeFileSync(path.join(dir, 'report.pdf'), good);
    fs.writeFileSync(path.join(dir, 'invoice.pdf'), Buffer.from('MZ\x90\x00 not a PDF at all', 'latin1'));
    await page.getByTestId('file-input').setInputFiles([path.join(dir, 'report.pdf'), path.join(dir, 'invoice.pdf')]);
    await page.getByRole('button', { name: 'Upload 2 files' }).click();
    const reason = 'File content does not match its type: a .pdf file should be a PDF document.';
    await expect(page.getByText(`Processing failed for invoice.pdf: ${reason}`)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Upload processed: 1 files confirmed successful.')).toBeVisible({ timeout: 30_000 });
    // Step 7 with the spec's message; the refused file stays, failed, with its reason and a retry.
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('Some files failed client-side processing. Only successfully processed files will be uploaded.');
    await expect(queueRow(page, 'invoice.pdf')).toHaveAttribute('data-status', 'error');
    await expect(queueRow(page, 'invoice.pdf').getByTestId('queue-row-detail')).toHaveText(reason);
    await expect(page.getByRole('button', { name: 'Retry Failed (1)' })).toBeEnabled();
  });
  await expectStoredExactly(admin, keys, folder.id, [{ relativePath: '.', name: 'report.pdf', content: good }]);
});

test.describe('a server restart in the middle of a large file', () => {
  const dataDir = path.join(ROOT, `.tmp/upload-restart-${RESTART_PORT}`);
  let server: ServerProcess | null = null;

  test.afterEach(async () => {
    await server?.stop();
    server = null;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the page resumes the tus upload by itself after the server comes back; the blob decrypts to the original', async ({ page }) => {
    test.setTimeout(240_000);
    server = new ServerProcess({ port: RESTART_PORT, dataDir, env: { UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
    await server.start();
    const { admin, keys } = await AdminClient.create(server.url, dataDir, 'upload-restart');
    const folder = await folderOf(admin, { title: 'Large upload' });
    const tusDir = path.join(dataDir, 'blobs', 'uploads');
    /** The tus uploads on disk (their ids are 32 hex digits), with the bytes stored so far. */
    const tusUploads = () =>
      (fs.existsSync(tusDir) ? fs.readdirSync(tusDir).filter((name) => /^[0-9a-f]{32}$/.test(name)) : []).map((name) => ({
        name,
        size: fs.statSync(path.join(tusDir, name)).size,
      }));
    const storedBytes = () => tusUploads()[0]?.size ?? 0;

    await withTempDir(async (dir) => {
      const big = path.join(dir, 'Aufnahme 2025 "roh".mov');
      const size = 150 * 1024 * 1024 + 5;
      const content = writeRandomFile(big, size);
      await openUploadPage(page, folder, server!.url);
      await page.getByTestId('file-input').setInputFiles(big);
      await page.getByRole('button', { name: 'Upload 1 file' }).click();
      const row = queueRow(page, path.basename(big));
      const rowDetail = row.getByTestId('queue-row-detail');

      // Two chunks stored, far from the end: the server goes down at once (a screenshot first
      // could let the upload finish on a fast machine).
      await expect.poll(storedBytes, { timeout: 60_000, intervals: [50] }).toBeGreaterThan(32 * 1024 * 1024);
      await server!.kill();
      const [beforeKill] = tusUploads();
      expect(beforeKill!.size).toBeLessThan(cipherLength(size));

      // The page notices and waits (no error, no retry button); the server comes back on the same data.
      await expect(rowDetail).toHaveText('Connection lost: continuing automatically when it is back', { timeout: 20_000 });
      await expect(row).toHaveAttribute('data-status', 'uploading');
      await expect(page.getByRole('button', { name: /^Retry Failed/ })).toHaveCount(0);
      await expect(page.getByRole('group', { name: 'Overall progress' })).toContainText('Encrypting and uploading');
      await shot(page, '01-mid-upload');
      await server!.start();

      // The same upload grows again from where it stopped.
      await expect.poll(storedBytes, { timeout: 60_000 }).toBeGreaterThan(beforeKill!.size);
      await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 90_000 });
      await expect(row).toHaveAttribute('data-status', 'success');
      await shot(page, '02-after-success');

      // Resumed, not started over: the run's one tus upload is the stored, complete ciphertext.
      expect(tusUploads()).toEqual([{ name: beforeKill!.name, size: cipherLength(size) }]);
      await expectStoredExactly(admin, keys, folder.id, [{ relativePath: '.', name: path.basename(big), content }]);
    });
  });
});

test('the page\'s crypto workers stopped in the middle of a large file: the file fails with its own error, the run ends, and Retry sends it to the end', async ({ page }) => {
  test.setTimeout(180_000);
  const { admin, keys } = await sharedServerAdmin('upload-workers');
  const folder = await folderOf(admin, { title: 'Stopped workers' });
  await withTempDir(async (dir) => {
    const big = path.join(dir, 'Mitschnitt.mov');
    const content = writeRandomFile(big, 150 * 1024 * 1024 + 9);
    await openUploadPage(page, folder);
    await page.getByTestId('file-input').setInputFiles(big);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    const row = queueRow(page, path.basename(big));
    await expect.poll(async () => Number(await row.getByRole('progressbar').getAttribute('aria-valuenow')), { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(5);

    // Every crypto worker of the page stops at once, without an error event (as a worker that closed itself).
    const cryptoWorkers = page.workers().filter((worker) => worker.url().includes('crypto.worker'));
    expect(cryptoWorkers.length).toBeGreaterThan(0);
    await Promise.all(cryptoWorkers.map((worker) => worker.evaluate(() => (self as unknown as { close(): void }).close()).catch(() => undefined)));

    // Found by the pool's heartbeat (about 30 s): the file says what happened and offers Retry.
    await expect(row).toHaveAttribute('data-status', 'error', { timeout: 90_000 });
    await expect(row.getByTestId('queue-row-detail')).toHaveText('Encryption failed: the encryption worker stopped; press Retry to continue');
    const retry = page.getByRole('button', { name: 'Retry Failed (1)' });
    await expect(retry).toBeEnabled();
    await shot(page, '03-workers-stopped');
    await retry.click();
    await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 120_000 });
    await expect(row).toHaveAttribute('data-status', 'success');
    await expectStoredExactly(admin, keys, folder.id, [{ relativePath: '.', name: path.basename(big), content }]);
  });
});

/** Writes `size` random bytes to `file` and returns them. */
function writeRandomFile(file: string, size: number): Buffer {
  const content = randomBytes(size);
  fs.writeFileSync(file, content);
  return content;
}
