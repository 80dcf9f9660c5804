// One-click resume through File System Access handles (issue 13), in the real browser against a
// real server of this spec's own, with the recording proxy of resume.spec.ts in front of it. Only
// the native dialogs are replaced (support/openPickers.ts: handles of files written into the
// origin-private file system first); the handle walk, the journal that keeps the handles in
// IndexedDB, the permission call and the resume are the app's own.
//
// - A file picked through the open dialog, the page reloaded in the middle: Continue Upload (no
//   dialog, no new selection) continues from the server's offset; no byte before it is sent again;
//   the blob decrypts to the original with the first page's IV.
// - A folder picked through the folder dialog, the browser closed in the middle: reopened on the same
//   profile, Continue Upload reads the folder again, resumes the unfinished file and does not send
//   the stored ones again.
// - The picked file changed on disk since: Continue Upload does not resume it and says to select it
//   again; nothing is sent.
// - Without the API (as in Firefox) the buttons open the plain file input and no Continue is offered.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { cipherLength } from '../server/crypto/index.ts';
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH, E2E_REDUCED_MOTION } from './support/environment.mjs';
import { answerPickers, patternedContent, pickerOpenings, withOpfsOpenPickers, withoutOpenPickers, writeOpfsFile } from './support/openPickers.ts';
import {
  allReceived,
  confirmed,
  creations,
  decryptStored,
  expectContinuedFromServerOffset,
  MiB,
  openLink,
  queueKeys,
  ResumeRig,
  sha256,
  storedRecord,
} from './support/resumeRig.ts';

/** Two ports after resume.spec.ts's server and proxy (RESUME_E2E_PORT moves all four). */
const SERVER_PORT = Number(process.env.RESUME_E2E_PORT ?? 8440) + 2;
const SHOTS_DIR = process.env.UPLOAD_SHOTS_DIR ?? '/tmp/upload-shots';

let rig: ResumeRig | null = null;

test.beforeEach(async () => {
  rig = await ResumeRig.start(SERVER_PORT, 'resume-handles');
});

test.afterEach(async () => {
  await rig?.stop();
  rig = null;
});

function continueButton(page: Page) {
  return page.getByTestId('unfinished-uploads').getByRole('button', { name: 'Continue Upload' });
}

test('a file picked through the open dialog, the page reloaded in the middle: Continue Upload resumes it from the server offset with no new selection, nothing before it is sent again', async ({ page }) => {
  test.setTimeout(240_000);
  await withOpfsOpenPickers(page);
  const { admin, keys, folderId } = await rig!.setUp(page);
  const seed = randomBytes(MiB);
  const size = 200 * MiB + 7;
  await writeOpfsFile(page, 'picked/Aufnahme "roh".mov', seed, size);
  const content = patternedContent(seed, size);
  const total = cipherLength(size);

  await answerPickers(page, { files: ['picked/Aufnahme "roh".mov'] });
  await page.getByRole('button', { name: 'Select Files' }).click();
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  const reload = await rig!.reloadWhenConfirmed(page, 32 * MiB);
  const firstIv = creations(rig!.log)[0]!.metadata!.iv;

  const unfinished = page.getByTestId('unfinished-uploads');
  await expect(unfinished).toContainText('Unfinished uploads (1)');
  await expect(unfinished).toContainText('Press Continue Upload to carry on where they stopped');
  await expect(unfinished.getByRole('listitem', { name: 'Aufnahme "roh".mov' })).toHaveAttribute('data-reopen', 'ready');
  await continueButton(page).click();
  await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 180_000 });
  // No dialog was opened by the new page: the kept handle did it.
  expect(await pickerOpenings(page)).toBe(0);

  expect(creations(rig!.log)).toHaveLength(1);
  const { resumedFrom, sent } = expectContinuedFromServerOffset(rig!.log.slice(reload.logIndex), total);
  expect(resumedFrom).toBeGreaterThanOrEqual(32 * MiB);
  test.info().annotations.push({ type: 'resume', description: `resumed at ${resumedFrom} of ${total} ciphertext bytes; ${sent} sent after the reload; 0 re-sent` });

  const record = await storedRecord(admin, folderId);
  expect(record.encryption_iv).toBe(firstIv);
  expect(record.file_hash).toBe(sha256(content));
  expect((await decryptStored(admin, keys, record)).equals(content)).toBe(true);
  await expect.poll(() => queueKeys(page)).toEqual(['storage-key']);
});

test('a folder picked through the folder dialog, the browser closed in the middle: reopened, Continue Upload resumes the unfinished file and does not send the stored ones again', async () => {
  test.setTimeout(240_000);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-profile-'));
  const launch = async () => {
    const context = await chromium.launchPersistentContext(profile, { executablePath: E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS, reducedMotion: E2E_REDUCED_MOTION });
    await withOpfsOpenPickers(context);
    return context;
  };
  let context = await launch();
  try {
    let page = context.pages()[0] ?? (await context.newPage());
    const { admin, keys, folderId, link } = await rig!.setUp(page);
    const seed = randomBytes(MiB);
    const files = [
      { dir: '.', name: 'notes.txt', size: 200 * 1024 },
      { dir: 'docs', name: 'contract.bin', size: 2 * MiB + 1 },
      { dir: 'raw', name: 'take 1.mov', size: 200 * MiB + 9 },
    ];
    for (const file of files) await writeOpfsFile(page, ['Shoot', file.dir, file.name].filter((p) => p !== '.').join('/'), seed, file.size);
    await answerPickers(page, { folder: 'Shoot' });
    await page.getByRole('button', { name: 'Select Folder' }).click();
    // The large file's first PATCH goes through, the next ones wait: it is unfinished when the browser goes.
    rig!.proxy.holdPatchesFrom(1);
    await page.getByRole('button', { name: 'Upload 3 files' }).click();
    await expect.poll(async () => (await admin.listFiles(folderId)).length, { timeout: 60_000, intervals: [50] }).toBe(2);
    await expect.poll(() => confirmed(rig!.log), { timeout: 120_000, intervals: [20] }).toBeGreaterThanOrEqual(16 * MiB);
    await context.close();
    rig!.proxy.holdPatchesFrom(null);
    const logIndex = rig!.log.length;

    context = await launch();
    page = context.pages()[0] ?? (await context.newPage());
    await openLink(page, link);
    const unfinished = page.getByTestId('unfinished-uploads');
    await expect(unfinished).toContainText('Unfinished uploads (1)');
    await expect(unfinished.getByRole('listitem', { name: 'take 1.mov' })).toHaveAttribute('data-reopen', 'ready');
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS_DIR, 'reopened-continue-upload.png'), fullPage: true });
    await continueButton(page).click();
    await expect(page.getByText('Not sent again: 2 files were already uploaded before the interruption.')).toBeVisible();
    await expect(page.getByText(allReceived(1))).toBeVisible({ timeout: 180_000 });
    expect(await pickerOpenings(page)).toBe(0);

    expect(creations(rig!.log)).toHaveLength(1);
    expectContinuedFromServerOffset(rig!.log.slice(logIndex), cipherLength(files[2]!.size));
    const records = await admin.listFiles(folderId);
    expect(records.map((r) => [r.original_filename, r.relative_path]).sort()).toEqual([
      ['contract.bin', 'Shoot/docs'],
      ['notes.txt', 'Shoot'],
      ['take 1.mov', 'Shoot/raw'],
    ]);
    for (const record of records) {
      const original = patternedContent(seed, files.find((f) => f.name === record.original_filename)!.size);
      expect((await decryptStored(admin, keys, record)).equals(original), record.original_filename).toBe(true);
    }
    await expect.poll(() => queueKeys(page)).toEqual(['storage-key']);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('the picked file changed since the interruption: Continue Upload does not resume it, says to select it again, and sends nothing', async ({ page }) => {
  test.setTimeout(180_000);
  await withOpfsOpenPickers(page);
  await rig!.setUp(page);
  const size = 100 * MiB + 3;
  await writeOpfsFile(page, 'picked/report.bin', randomBytes(MiB), size);
  await answerPickers(page, { files: ['picked/report.bin'] });
  await page.getByRole('button', { name: 'Select Files' }).click();
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  await rig!.reloadWhenConfirmed(page, 16 * MiB);

  // Changed on disk: same name and size, new content and date.
  await writeOpfsFile(page, 'picked/report.bin', randomBytes(MiB), size);
  const row = page.getByTestId('unfinished-uploads').getByRole('listitem', { name: 'report.bin' });
  await expect(row).toHaveAttribute('data-reopen', 'ready');
  const logIndex = rig!.log.length;
  await continueButton(page).click();
  await expect(row).toHaveAttribute('data-reopen', 'changed');
  await expect(row).toContainText('changed since: select it again (it will be sent from the start)');
  await expect(continueButton(page)).toHaveCount(0);
  await expect(page.getByTestId('unfinished-uploads')).toContainText('Select the same files or folder again and press Upload');
  await expect(page.getByRole('list', { name: 'Files to upload' })).toHaveCount(0);
  expect(rig!.log.slice(logIndex)).toEqual([]);
});

test('without the File System Access API (as in Firefox) Select Files opens the plain file input and an unfinished upload offers no Continue', async ({ page }) => {
  test.setTimeout(180_000);
  await withoutOpenPickers(page);
  await rig!.setUp(page);
  const file = path.join(rig!.workDir, 'plain.bin');
  fs.writeFileSync(file, randomBytes(100 * MiB + 1));
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Select Files' }).click();
  await (await chooser).setFiles(file);
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  await rig!.reloadWhenConfirmed(page, 8 * MiB);
  const unfinished = page.getByTestId('unfinished-uploads');
  await expect(unfinished.getByRole('listitem', { name: 'plain.bin' })).toHaveAttribute('data-reopen', 'reselect');
  await expect(unfinished).toContainText('Select the same files or folder again and press Upload');
  await expect(continueButton(page)).toHaveCount(0);
});
