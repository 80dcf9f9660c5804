// Storage an admin can bound and recover (issue 28), in the real browser against real servers:
// - a folder at its file limit: the upload page says what happened and what to do, sends the
//   refused batch once (no blind retry), and uploads on Retry once the admin deleted a file; the
//   dashboard shows the folder full in words; the folder form's storage part; the files screen's
//   unfinished uploads with Cancel, which frees the room at once;
// - the disk's reserve reached part-way through a large file (a server of this spec's own on a
//   tmpfs it mounts as root): the page says so, and Retry after the admin deleted files continues
//   from the server's offset (the bytes before it are not sent again) to a file that decrypts to
//   the original.
// Screenshots at 1280 and 390 px go to STORAGE_SHOTS_DIR (default /tmp/storage-shots).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page, type Request } from '@playwright/test';
import { cipherLength, decryptBuffer, unwrapFileKey } from '../server/crypto/index.ts';
import { createAdmin, signIn } from './support/admin.ts';
import { AdminClient } from './support/api-client.ts';
import { E2E_BASE_URL, SPEC_PORTS } from './support/environment.mjs';
import { giveAdminKeyPair, sha256 } from './support/files-seed.ts';
import { ServerProcess } from './support/server-process.ts';

const SHOTS_DIR = process.env.STORAGE_SHOTS_DIR ?? '/tmp/storage-shots';
/** The tmpfs test's own server (STORAGE_E2E_PORT moves it). */
const OWN_PORT = Number(process.env.STORAGE_E2E_PORT ?? SPEC_PORTS.storageServer);
const MiB = 1024 * 1024;
const FOLDER_FULL = 'This folder cannot take more files right now. Contact the person who sent you the link.';
const SERVER_FULL = 'The server has no room for these files right now. Try again later, or contact the person who sent you the link.';
const WIDTHS = [1280, 390] as const;

async function shots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  return { 'x-csrftoken': (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '' };
}

function writeFiles(dir: string, files: Array<{ name: string; size: number }>): string[] {
  fs.mkdirSync(dir, { recursive: true });
  return files.map(({ name, size }) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, randomBytes(size));
    return file;
  });
}

/** An anonymous uploader's page of its own (no admin cookies), recording its upload requests. */
async function uploaderPage(browser: Browser, linkUrl: string, title: string): Promise<{ page: Page; sent: Request[]; close(): Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/upload/') && ['POST', 'PATCH', 'HEAD'].includes(request.method())) sent.push(request);
  });
  await page.goto(linkUrl);
  await expect(page.getByRole('heading', { name: `Upload Files for "${title}"` })).toBeVisible();
  return { page, sent, close: () => context.close() };
}

async function pickAndUpload(page: Page, files: string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(files);
  await page.getByRole('button', { name: `Upload ${files.length} file${files.length === 1 ? '' : 's'}` }).click();
}

/** An unfinished tus upload through the link (node's fetch, as a client that went away would leave it). */
async function leaveUnfinishedUpload(linkToken: string, name: string, plainSize: number, sendBytes: number): Promise<void> {
  const status = await fetch(`${E2E_BASE_URL}/api/upload/${linkToken}/status`);
  const csrf = /csrftoken=([^;]+)/.exec(status.headers.getSetCookie().join('; '))?.[1] ?? '';
  const headers = { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf, 'tus-resumable': '1.0.0' };
  const metadata = Object.entries({ filename: name, encryptedKey: Buffer.alloc(256, 7).toString('base64'), iv: Buffer.alloc(12, 3).toString('base64'), plainSize: String(plainSize) })
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
  const created = await fetch(`${E2E_BASE_URL}/api/upload/${linkToken}/tus`, {
    method: 'POST',
    headers: { ...headers, 'upload-length': String(cipherLength(plainSize)), 'upload-metadata': metadata },
  });
  expect(created.status).toBe(201);
  const patched = await fetch(`${E2E_BASE_URL}${created.headers.get('location')}`, {
    method: 'PATCH',
    headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(randomBytes(sendBytes)),
  });
  expect(patched.status).toBe(204);
}

test('a folder at its limit: the page says so without retrying, and Retry uploads once the admin made room; the admin sees and frees storage', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-storage-'));
  const account = await createAdmin('storage');
  await signIn(page, account);
  await giveAdminKeyPair(page, account.password);
  const created = await page.request.post('/api/folders/', {
    data: { title: 'Client scans', perform_mime_check: false, storage_limit_bytes: 50 * MiB, file_limit: 2 },
    headers: await csrfHeaders(page),
  });
  expect(created.status()).toBe(201);
  const folder = (await created.json()) as { id: number; link_token: string };
  const uploader = await uploaderPage(browser, `${E2E_BASE_URL}/upload/${folder.link_token}`, 'Client scans');
  try {
    // Two files fill the folder's file limit.
    await pickAndUpload(uploader.page, writeFiles(path.join(work, 'first'), [{ name: 'a.bin', size: 20_000 }, { name: 'b.bin', size: 30_000 }]));
    await expect(uploader.page.getByText('Upload successful! All 2 processed files received.')).toBeVisible({ timeout: 60_000 });

    // A third is refused: the page says what happened and what to do, after one request.
    const before = uploader.sent.length;
    await pickAndUpload(uploader.page, writeFiles(path.join(work, 'second'), [{ name: 'c.bin', size: 40_000 }]));
    await expect(uploader.page.getByRole('main').getByRole('alert').filter({ hasText: FOLDER_FULL })).toBeVisible({ timeout: 60_000 });
    await expect(uploader.page.getByRole('button', { name: 'Retry Failed (1)' })).toBeEnabled();
    // The run has ended (Retry is offered): the refused batch was sent once, not retried.
    expect(uploader.sent.slice(before).filter((request) => request.method() === 'POST').map((request) => new URL(request.url()).pathname)).toEqual([
      `/api/upload/${folder.link_token}`,
    ]);
    await shots(uploader.page, 'upload-folder-full');

    // The admin sees the folder full, in words.
    await page.goto('/dashboard');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Client scans' }) });
    await expect(row.getByText('2 of 2 files')).toBeVisible();
    await expect(row.getByText('Full: uploads are refused')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Storage' })).toContainText('Your folders hold');
    await shots(page, 'dashboard-storage');

    // An upload left unfinished holds room too; the admin sees it on the files screen and cancels it.
    const third = await page.request.put(`/api/folders/${folder.id}`, { data: { title: 'Client scans', file_limit: 3 }, headers: await csrfHeaders(page) });
    expect(third.status()).toBe(200);
    await leaveUnfinishedUpload(folder.link_token, 'half.pdf', 3 * MiB, MiB);
    await page.goto(`/folders/view/${folder.id}`);
    const unfinished = page.getByRole('region', { name: 'Unfinished uploads' });
    const item = unfinished.getByRole('listitem', { name: 'half.pdf' });
    await expect(item).toContainText('received');
    await shots(page, 'files-unfinished-upload');
    await item.getByRole('button', { name: 'Cancel the upload of half.pdf' }).click();
    await page.getByRole('dialog', { name: 'Cancel this upload?' }).getByRole('button', { name: 'Cancel Upload' }).click();
    await expect(unfinished.getByText('No unfinished uploads.')).toBeVisible();

    // Room for the refused file: the admin deletes one (the limit is back at 2 files).
    const back = await page.request.put(`/api/folders/${folder.id}`, { data: { title: 'Client scans', file_limit: 2 }, headers: await csrfHeaders(page) });
    expect(back.status()).toBe(200);
    await page.reload();
    await page.getByRole('checkbox', { name: 'Select a.bin' }).check();
    await page.getByRole('button', { name: 'Delete Selected' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('checkbox', { name: 'Select a.bin' })).toHaveCount(0);

    // The uploader's Retry now stores the refused file.
    await uploader.page.getByRole('button', { name: 'Retry Failed (1)' }).click();
    await expect(uploader.page.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 60_000 });

    // The folder form's storage part, as the admin edits it.
    await page.goto(`/folders/edit/${folder.id}`);
    const limits = page.getByRole('region', { name: 'Storage and retention' });
    await expect(limits.getByLabel('Maximum number of files')).toHaveValue('2');
    await expect(limits.getByLabel('Storage limit (MB)')).toHaveValue('50');
    await limits.getByLabel('Delete files automatically').check();
    await limits.getByLabel('Delete files after (days)').fill('30');
    await limits.scrollIntoViewIfNeeded();
    await shots(page, 'folder-form-limits');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto(`/folders/view/${folder.id}`);
    await expect(page.getByText('Files are deleted 30 days after their upload.')).toBeVisible();
    await expect(page.getByText(/^deleted on /).first()).toBeVisible();
    await shots(page, 'files-retention');
  } finally {
    await uploader.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
});

/** A tmpfs of `sizeMb` at a fresh directory, or the reason it cannot be had here. */
function mountTmpfs(sizeMb: number): { dir: string } | { refused: string } {
  if (process.getuid?.() !== 0) return { refused: 'mounting a tmpfs needs root' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-e2e-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { refused: (error as Error).message.split('\n')[0]! };
  }
}

function freeBytes(dir: string): number {
  const info = fs.statfsSync(dir);
  return info.bavail * info.bsize;
}

test('the disk\'s reserve reached part-way through a large file: the page says so, and Retry continues from the server\'s offset once the admin deleted files', async ({ browser }) => {
  test.setTimeout(240_000);
  const mount = mountTmpfs(72);
  test.skip('refused' in mount, 'refused' in mount ? mount.refused : ''); // skip-reason: needs a tmpfs of its own for the server's data (root); CI runs as root.
  if ('refused' in mount) return;
  const server = new ServerProcess({
    port: OWN_PORT,
    dataDir: path.join(mount.dir, 'data'),
    env: { STORAGE_RESERVE_MB: '8', FOLDER_STORAGE_LIMIT_MB: '0', FOLDER_FILE_LIMIT: '0', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' },
  });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-storage-'));
  let uploader: Awaited<ReturnType<typeof uploaderPage>> | undefined;
  try {
    await server.start();
    const { admin, keys } = await AdminClient.create(server.url, server.dataDir, 'disk-admin');
    const folder = await admin.createFolder({ title: 'Large scans', perform_mime_check: false, storage_limit_bytes: null, file_limit: null });
    uploader = await uploaderPage(browser, `${server.url}/upload/${folder.link_token}`, 'Large scans');

    // An earlier upload the admin can delete later.
    await pickAndUpload(uploader.page, writeFiles(path.join(work, 'old'), [{ name: 'old.bin', size: 14 * MiB }]));
    await expect(uploader.page.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 90_000 });

    // A 16 MiB file fits when its upload is created; before its bytes go, another program leaves
    // only 6 MiB above the reserve, so its PATCH is refused part-way.
    let filled = false;
    await uploader.page.route(
      (url) => url.pathname.startsWith(`/api/upload/${folder.link_token}/tus/`),
      async (route) => {
        if (route.request().method() === 'PATCH' && !filled) {
          filled = true;
          fs.writeFileSync(path.join(mount.dir, 'other-program.log'), Buffer.alloc(Math.max(0, freeBytes(mount.dir) - 8 * MiB - 6 * MiB)));
        }
        await route.continue();
      },
    );
    const plain = randomBytes(16 * MiB);
    const file = path.join(work, 'new', 'new.bin');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, plain);
    const before = uploader.sent.length;
    await pickAndUpload(uploader.page, [file]);
    await expect(uploader.page.getByRole('main').getByRole('alert').filter({ hasText: SERVER_FULL })).toBeVisible({ timeout: 90_000 });
    await expect(uploader.page.getByRole('button', { name: 'Retry Failed (1)' })).toBeEnabled();
    const refusedPatches = uploader.sent.slice(before).filter((request) => request.method() === 'PATCH');
    expect(refusedPatches).toHaveLength(1);
    expect((await refusedPatches[0]!.response())?.status()).toBe(507);
    await shots(uploader.page, 'upload-disk-full');

    // The admin deletes the earlier file: its room is free at once.
    const [old] = await admin.listFiles(folder.id);
    const deleted = await admin.request('POST', '/api/folders/files/delete', { file_ids: [old!.id] });
    expect(deleted.status).toBe(200);

    // Retry continues the same upload from the server's offset: a HEAD, then only the rest. The
    // earlier upload's notification has the same words and lasts 5 s; on a fast run it was still
    // there when Retry was clicked, and the wait below ended before the retry sent anything.
    await expect(uploader.page.getByText('Upload successful! All 1 processed files received.')).toBeHidden({ timeout: 15_000 });
    const retryFrom = uploader.sent.length;
    await uploader.page.getByRole('button', { name: 'Retry Failed (1)' }).click();
    await expect(uploader.page.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 90_000 });
    const retried = uploader.sent.slice(retryFrom);
    expect(retried.filter((request) => request.method() === 'POST' && request.url().endsWith('/tus'))).toHaveLength(0);
    const head = retried.find((request) => request.method() === 'HEAD');
    const resumedFrom = Number((await head!.response())?.headers()['upload-offset']);
    expect(resumedFrom).toBeGreaterThan(0);
    const firstPatch = retried.find((request) => request.method() === 'PATCH')!;
    expect(Number(firstPatch.headers()['upload-offset'])).toBe(resumedFrom);

    // The stored file decrypts to the original.
    const [stored] = await admin.listFiles(folder.id);
    expect(stored!.original_filename).toBe('new.bin');
    const ciphertext = Buffer.from(await (await admin.downloadCiphertext(stored!.id)).arrayBuffer());
    const decrypted = decryptBuffer(unwrapFileKey(keys.privateKey, stored!.encrypted_key), Buffer.from(stored!.encryption_iv, 'base64'), ciphertext);
    expect(sha256(decrypted)).toBe(sha256(plain));
  } finally {
    await uploader?.close();
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
    execFileSync('umount', ['-l', mount.dir]);
    fs.rmSync(mount.dir, { recursive: true, force: true });
  }
});
