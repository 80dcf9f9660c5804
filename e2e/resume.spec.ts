// Uploads that survive a reload (issue 13), in the real browser against a real server of this
// spec's own, with no mocks. Between the page and the server sits a recording pass-through proxy
// (support/tus-recorder.ts), so what was sent is proven from the server's side of the wire: every
// tus request with its Upload-Offset and the body bytes that actually arrived.
//
// - A reload in the middle of a 200 MiB file: the page lists the unfinished file, the same file
//   selected again continues from the offset the server reports (HEAD), no byte before it is sent
//   again, there is one tus upload in all, and the stored blob decrypts (node:crypto) to the original
//   with the IV the first page chose.
// - The browser closed in the middle of a folder upload and opened again on the same profile: the
//   same folder selected again sends only the unfinished file (resumed) and not the stored ones.
// - A file modified between the interruption and the resume is started over with a fresh key and
//   IV (a new tus upload; the old one cancelled) and arrives intact.
// - A file edited in place with its size and date kept (same identity by every field the browser
//   shows) is caught by the content signature of the part already sent, and started over likewise
//   (issue 26: no (key, nonce) over two plaintexts, no file of two versions).
// - RESUME_MEASURE_GIB=1: the time from a reload at 50 % of a 1 GiB file to ciphertext flowing again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium, expect, test, type Page } from '@playwright/test';
import { cipherLength, type NodeKeyPair } from '../server/crypto/index.ts';
import type { AdminClient } from './support/api-client.ts';
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH, E2E_REDUCED_MOTION } from './support/environment.mjs';
import {
  allReceived,
  confirmed,
  creations,
  decryptStored,
  MiB,
  openLink,
  patches,
  queueEntries,
  queueKeys,
  ResumeRig,
  sha256,
  storedRecord,
  writeRandomFile,
} from './support/resumeRig.ts';

/**
 * Ports 8440-8449 are this spec's: its server and the recording proxy in front of it
 * (RESUME_E2E_PORT moves both, for two runs of this spec on one machine; resume-handles.spec.ts
 * takes the two after them).
 */
const SERVER_PORT = Number(process.env.RESUME_E2E_PORT ?? 8440);
const SHOTS_DIR = process.env.UPLOAD_SHOTS_DIR ?? '/tmp/upload-shots';

let rig: ResumeRig | null = null;

test.beforeEach(async () => {
  rig = await ResumeRig.start(SERVER_PORT, 'resume');
});

test.afterEach(async () => {
  await rig?.stop();
  rig = null;
});

/**
 * The records covered by the hash checkpoint stored with the page's unfinished entry (0: none):
 * a resumed file hashes only what follows them (docs/upload.md, "Laptop realities").
 */
async function storedHashRecords(page: Page): Promise<number> {
  const entries = (await queueEntries(page)) as Array<{ hashCheckpoint?: { records: number } } | undefined>;
  return Math.max(0, ...entries.map((entry) => entry?.hashCheckpoint?.records ?? 0));
}

async function selectAndUpload(page: Page, file: string): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(file);
  await pressUpload(page);
}

async function pressUpload(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
}

/**
 * The file was started over after the reload: a second tus upload with a fresh key and IV, sent
 * from byte 0; the first one cancelled; the stored file is the second, and decrypts to `content`.
 */
async function expectStartedOver(stored: { admin: AdminClient; keys: NodeKeyPair; folderId: number }, content: Buffer): Promise<void> {
  const made = creations(rig!.proxy.log);
  expect(made).toHaveLength(2);
  expect(made[1]!.metadata!.iv).not.toBe(made[0]!.metadata!.iv);
  expect(made[1]!.metadata!.encryptedKey).not.toBe(made[0]!.metadata!.encryptedKey);
  const cancelled = rig!.proxy.log.find((r) => r.method === 'DELETE' && r.path === new URL(made[0]!.location!, rig!.proxy.url).pathname);
  expect(cancelled?.status).toBe(204);
  const newPath = new URL(made[1]!.location!, rig!.proxy.url).pathname;
  expect(patches(rig!.proxy.log).find((r) => r.path === newPath)?.uploadOffset).toBe(0);

  const record = await storedRecord(stored.admin, stored.folderId);
  expect(record.encryption_iv).toBe(made[1]!.metadata!.iv);
  const plain = await decryptStored(stored.admin, stored.keys, record);
  expect(plain.equals(content)).toBe(true);
  expect(record.file_hash).toBe(sha256(content));
}

test('a reload in the middle of a 200 MiB file: the same file selected again continues from the server offset, nothing before it is sent again, the blob decrypts to the original', async ({ page }) => {
  test.setTimeout(240_000);
  const { admin, keys, folderId } = await rig!.setUp(page);
  const file = path.join(rig!.workDir, 'Aufnahme "roh".mov');
  const size = 200 * MiB + 7;
  const content = writeRandomFile(file, size);
  const total = cipherLength(size);

  await selectAndUpload(page, file);
  // The hash state at 16 MiB of plaintext (64 records) is stored once the server holds all of it.
  await expect.poll(() => storedHashRecords(page), { timeout: 120_000, intervals: [50] }).toBeGreaterThanOrEqual(64);
  // Two chunks confirmed, far from the end.
  const reload = await rig!.reloadWhenConfirmed(page, 32 * MiB);
  const firstIv = creations(rig!.proxy.log)[0]!.metadata!.iv;
  // What the new page resumes the hash from: the file is not hashed from byte 0 again.
  expect(await storedHashRecords(page)).toBeGreaterThanOrEqual(64);

  // The new page lists what is unfinished and how much of it the server holds.
  const unfinished = page.getByTestId('unfinished-uploads');
  await expect(unfinished).toContainText('Unfinished uploads (1)');
  await expect(unfinished.getByRole('listitem', { name: path.basename(file) })).toContainText(/MB of 200 MB stored/);
  await page.getByTestId('file-input').setInputFiles(file);
  const entry = unfinished.getByRole('listitem', { name: path.basename(file) });
  await expect(entry).toHaveAttribute('data-match', 'selected');
  await pressUpload(page);
  // While the run sends it, the file is no longer listed as unfinished (it is the run's own).
  await expect(entry).toHaveCount(0);
  await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 180_000 });

  // From the server's side: one upload in all; after the reload the page asked for the offset and
  // sent exactly the bytes from there to the end, each PATCH continuing where the last one ended.
  const log = rig!.proxy.log;
  expect(creations(log)).toHaveLength(1);
  const after = log.slice(reload.logIndex);
  const head = after.find((r) => r.method === 'HEAD');
  expect(head?.status).toBe(200);
  const resumedFrom = head!.responseOffset!;
  expect(resumedFrom).toBeGreaterThanOrEqual(32 * MiB);
  expect(resumedFrom).toBeLessThan(total);
  const sentAfter = patches(after);
  expect(sentAfter[0]!.uploadOffset).toBe(resumedFrom);
  let expected = resumedFrom;
  for (const patch of sentAfter) {
    expect(patch.uploadOffset).toBe(expected);
    expect(patch.status).toBe(204);
    expected += patch.bodyBytes;
  }
  expect(expected).toBe(total);
  const bytesAfterReload = sentAfter.reduce((sum, r) => sum + r.bodyBytes, 0);
  expect(bytesAfterReload).toBe(total - resumedFrom);
  test.info().annotations.push({ type: 'resume', description: `resumed at ${resumedFrom} of ${total} ciphertext bytes; ${bytesAfterReload} sent after the reload; 0 re-sent` });

  // Byte-identical to an uninterrupted upload: the first page's IV, one key, and it decrypts.
  const record = await storedRecord(admin, folderId);
  expect(record.encryption_iv).toBe(firstIv);
  expect(record.file_hash).toBe(sha256(content));
  const plain = await decryptStored(admin, keys, record);
  expect(sha256(plain)).toBe(sha256(content));
  expect(plain.equals(content)).toBe(true);
  // Purged on completion: the browser keeps only the storage key (entry and wrapped file key are gone).
  await expect.poll(() => queueKeys(page)).toEqual(['storage-key']);
});

test('a file modified between the interruption and the resume starts over with a fresh key and IV (the old upload cancelled) and arrives intact', async ({ page }) => {
  test.setTimeout(240_000);
  const { admin, keys, folderId } = await rig!.setUp(page);
  const file = path.join(rig!.workDir, 'report.bin');
  const size = 100 * MiB + 3;
  writeRandomFile(file, size);

  await selectAndUpload(page, file);
  await rig!.reloadWhenConfirmed(page, 16 * MiB);

  // Changed on disk: same name and size, new content and date.
  const changed = writeRandomFile(file, size);
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(file, later, later);

  const unfinished = page.getByTestId('unfinished-uploads');
  await expect(unfinished).toContainText('Unfinished uploads (1)');
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(unfinished.getByRole('listitem', { name: 'report.bin' })).toHaveAttribute('data-match', 'changed');
  await pressUpload(page);
  await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 180_000 });

  await expectStartedOver({ admin, keys, folderId }, changed);
});

test('a file edited in place with its size and date kept is caught by the signature of the part already sent: it starts over with a fresh key and IV and arrives as edited', async ({ page }) => {
  test.setTimeout(240_000);
  const { admin, keys, folderId } = await rig!.setUp(page);
  const file = path.join(rig!.workDir, 'disk.img');
  const size = 100 * MiB + 3;
  const original = writeRandomFile(file, size);
  // A whole second, which survives being written back exactly (sub-millisecond dates may not).
  const date = Math.floor(Date.now() / 1000) - 3600;
  fs.utimesSync(file, date, date);

  await selectAndUpload(page, file);
  await rig!.reloadWhenConfirmed(page, 16 * MiB);

  // A tool that writes in place and keeps the date: 4 KiB inside the first, already sent MiBs.
  const edited = Buffer.from(original);
  edited.fill(0x5a, 1 * MiB, 1 * MiB + 4096);
  fs.writeFileSync(file, edited);
  fs.utimesSync(file, date, date);

  const unfinished = page.getByTestId('unfinished-uploads');
  await page.getByTestId('file-input').setInputFiles(file);
  // By path, name, size and date it is the same file: only its content says otherwise.
  await expect(unfinished.getByRole('listitem', { name: 'disk.img' })).toHaveAttribute('data-match', 'selected');
  await pressUpload(page);
  await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 180_000 });

  await expectStartedOver({ admin, keys, folderId }, edited);
});

test('the browser closed in the middle of a folder upload: reopened on the same profile with the same folder selected, the unfinished file resumes and the finished ones are not sent again', async () => {
  test.setTimeout(240_000);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-profile-'));
  const launch = () => chromium.launchPersistentContext(profile, { executablePath: E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS, reducedMotion: E2E_REDUCED_MOTION });
  let context = await launch();
  try {
    let page = context.pages()[0] ?? (await context.newPage());
    const { admin, keys, folderId, link } = await rig!.setUp(page);
    const root = path.join(rig!.workDir, 'Shoot');
    const plain = [
      { dir: '.', name: 'notes.txt', content: randomBytes(200 * 1024) },
      { dir: 'docs', name: 'contract.bin', content: randomBytes(2 * MiB + 1) },
      { dir: 'raw', name: 'take 1.mov', content: randomBytes(200 * MiB + 9) },
    ];
    for (const file of plain) {
      fs.mkdirSync(path.join(root, file.dir), { recursive: true });
      fs.writeFileSync(path.join(root, file.dir, file.name), file.content);
    }
    await page.getByTestId('folder-input').setInputFiles(root);
    // The large file's first PATCH goes through, the next ones wait: it is unfinished when the browser goes.
    rig!.proxy.holdPatchesFrom(1);
    await page.getByRole('button', { name: 'Upload 3 files' }).click();
    // The two small files stored, the large one partly: then the browser goes away (no beforeunload, as in a crash).
    await expect.poll(async () => (await admin.listFiles(folderId)).length, { timeout: 60_000, intervals: [50] }).toBe(2);
    await expect.poll(() => confirmed(rig!.proxy.log), { timeout: 120_000, intervals: [20] }).toBeGreaterThanOrEqual(16 * MiB);
    await context.close();
    rig!.proxy.holdPatchesFrom(null);
    const logIndex = rig!.proxy.log.length;

    context = await launch();
    page = context.pages()[0] ?? (await context.newPage());
    await openLink(page, link);
    const unfinished = page.getByTestId('unfinished-uploads');
    await expect(unfinished).toContainText('Unfinished uploads (1)');
    await expect(unfinished).toContainText('2 files of that upload arrived before the interruption and will not be sent again.');
    await expect(unfinished.getByRole('listitem', { name: 'take 1.mov' })).toContainText(/MB of 200 MB stored/);
    await page.getByTestId('folder-input').setInputFiles(root);
    await expect(page.getByText('Not sent again: 2 files were already uploaded before the interruption.')).toBeVisible();
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS_DIR, 'reopened-folder-selected.png'), fullPage: true });
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 180_000 });

    // One tus upload in all, continued from the server's offset with nothing before it sent again.
    expect(creations(rig!.proxy.log)).toHaveLength(1);
    const after = rig!.proxy.log.slice(logIndex);
    const head = after.find((r) => r.method === 'HEAD')!;
    expect(patches(after)[0]!.uploadOffset).toBe(head.responseOffset);
    expect(patches(after).reduce((sum, r) => sum + r.bodyBytes, 0)).toBe(cipherLength(plain[2]!.content.length) - head.responseOffset!);
    // Each file stored once, and each decrypts to its original.
    const records = await admin.listFiles(folderId);
    expect(records.map((r) => r.original_filename).sort()).toEqual(['contract.bin', 'notes.txt', 'take 1.mov']);
    for (const record of records) {
      const original = plain.find((f) => f.name === record.original_filename)!.content;
      expect((await decryptStored(admin, keys, record)).equals(original), record.original_filename).toBe(true);
    }
    // Nothing is left to continue: the entry, its wrapped key and the marks of the stored files are gone.
    await expect.poll(() => queueKeys(page)).toEqual(['storage-key']);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test.describe('measurement', () => {
  // Skipped here, before the hooks, so that a normal run starts no server for it.
  test.skip(process.env.RESUME_MEASURE_GIB !== '1', 'a measurement, not a check: set RESUME_MEASURE_GIB=1'); // skip-reason: missing RESUME_MEASURE_GIB=1, the opt-in for this 1 GiB timing run (a measurement, not a check)

  test('measure: a reload at 50 % of a 1 GiB file, seconds until ciphertext flows again (RESUME_MEASURE_GIB=1)', async ({ page }) => {
    test.setTimeout(900_000);
    const { admin, folderId } = await rig!.setUp(page);
    const file = path.join(rig!.workDir, 'one-gib.bin');
    const size = 1024 * MiB;
    const content = writeRandomFile(file, size);
    const total = cipherLength(size);
    await selectAndUpload(page, file);
    const reload = await rig!.reloadWhenConfirmed(page, total / 2);
    await expect(page.getByTestId('unfinished-uploads')).toBeVisible();
    await selectAndUpload(page, file);
    await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 800_000 });
    const after = rig!.proxy.log.slice(reload.logIndex);
    const firstData = patches(after).find((r) => r.firstByteAt !== null)!;
    const head = after.find((r) => r.method === 'HEAD')!;
    const sentAfter = patches(after).reduce((sum, r) => sum + r.bodyBytes, 0);
    const lostSeconds = (firstData.firstByteAt! - reload.at) / 1000;
    const finishedAt = Math.max(...patches(after).map((r) => r.at));
    const line = `reload at ${head.responseOffset} of ${total} bytes; ${lostSeconds.toFixed(2)} s from reload to the first byte sent again (page load, file selection and key restore included); ${sentAfter - (total - head.responseOffset!)} bytes re-sent; last PATCH started ${((finishedAt - reload.at) / 1000).toFixed(1)} s after the reload`;
    console.log(`RESUME MEASUREMENT: ${line}`);
    test.info().annotations.push({ type: 'measurement', description: line });
    const record = await storedRecord(admin, folderId);
    expect(record.file_hash).toBe(sha256(content));
  });
});
