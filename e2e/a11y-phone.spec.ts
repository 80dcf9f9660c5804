// The dashboard, the files screen, the upload and the download page on a phone (issue 29): a
// 390 × 844 touch screen. Nothing the user needs scrolls sideways (the page, or any box inside it),
// at 390 px and at WCAG 1.4.10's 320 px; every target is on screen and at least 24 × 24 CSS px
// (boundingBox); the dashboard shows each folder as a card with its actions; the files screen keeps
// name, size and action of every tree row on screen; dialogs fit. Screenshots of every checked
// screen go to A11Y_SHOTS_DIR when it is set.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createAdmin, signIn } from './support/admin.ts';
import { accessibilityProblems } from './support/axe.ts';
import { createFolder, giveAdminKeyPair, uploadFiles } from './support/files-seed.ts';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { expectDialogFits, expectNoSidewaysScrolling, expectTargetsReachable } from './support/layout.ts';
import { linkWithFiles } from './support/link-seed.ts';

const SHOTS_DIR = process.env.A11Y_SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
/** WCAG 1.4.10 Reflow: content at 320 CSS px without scrolling in two directions. */
const REFLOW = { width: 320, height: 740 };
const LONG_NAME = 'Interview_with_the_director_of_the_regional_hospital_final_version_take_12.mov';

// The axe sweeps look at the app with its default motion, as most people see it (the rest of the
// suite asks for reduced motion: e2e/support/environment.mjs).
test.use({ viewport: PHONE, isMobile: true, hasTouch: true, reducedMotion: 'no-preference' });

async function shot(page: Page, screen: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `phone-${screen}-390.png`), fullPage: true });
}

/** The layout checks of one screen, and its screenshot; then the reflow width of WCAG 1.4.10 (320 px). */
async function checkScreen(page: Page, screen: string): Promise<void> {
  await expectNoSidewaysScrolling(page, screen);
  await expectTargetsReachable(page, screen);
  expect(await accessibilityProblems(page), `axe on ${screen} at 390 px`).toEqual([]);
  await shot(page, screen);
  await page.setViewportSize(REFLOW);
  await expectNoSidewaysScrolling(page, `${screen} at 320 px`);
  await page.setViewportSize(PHONE);
}

/** The element's box lies inside the viewport's width. */
async function expectOnScreen(page: Page, target: ReturnType<Page['locator']>, what: string): Promise<void> {
  const box = await target.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.x, what).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, what).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test('the dashboard shows folders as cards and the files screen keeps its tree usable, without sideways scrolling, at 390 px', async ({ page }) => {
  const admin = await createAdmin('a11y-phone');
  await signIn(page, admin);
  const publicKey = await giveAdminKeyPair(page, admin.password);
  const folder = await createFolder(page, 'Client intake with a rather long title for a small screen');
  await createFolder(page, 'Tax documents');
  await uploadFiles(folder.link_token, publicKey, [
    { dir: '.', name: 'contract.pdf', content: Buffer.from('contract') },
    { dir: '.', name: LONG_NAME, content: randomBytes(150_000) },
    { dir: 'scans', name: 'page-1.png', content: Buffer.from('page one') },
    { dir: 'scans/2024/march', name: 'page-2.png', content: Buffer.from('page two') },
  ]);

  await page.goto('/dashboard');
  const cards = page.getByRole('list', { name: 'Folders' });
  await expect(cards.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('table')).toHaveCount(0);
  const card = cards.getByRole('listitem', { name: /Client intake/ });
  for (const text of ['Active', 'Open link', 'New files', 'Created', 'Expires', 'Last Upload']) await expect(card.getByText(text, { exact: true })).toBeVisible();
  for (const action of ['Copy Link', 'Edit', 'Delete']) await expectOnScreen(page, card.getByRole(action === 'Edit' ? 'link' : 'button', { name: action }), `the card's ${action}`);
  await checkScreen(page, 'dashboard');

  // The sort headers' choices, in one select: 'Title, ascending' asks the server for that order.
  const sorted = page.waitForRequest((request) => request.url().includes('sort_by=title') && request.url().includes('sort_order=asc'));
  await page.getByLabel('Sort by').selectOption({ label: 'Title, ascending' });
  await sorted;
  await expect(cards.getByRole('listitem').first()).toContainText('Client intake');

  await card.getByRole('button', { name: 'Delete' }).click();
  const confirmDelete = page.getByRole('dialog', { name: 'Delete folder' });
  await expectDialogFits(page, confirmDelete, 'delete-folder dialog');
  await confirmDelete.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmDelete).toBeHidden();

  await card.getByRole('link', { name: /Client intake/ }).click();
  const toolbar = page.getByRole('toolbar', { name: 'File actions' });
  await expect(toolbar).toBeVisible();
  await page.getByRole('button', { name: 'Expand scans' }).click();
  await page.getByRole('button', { name: 'Expand scans/2024' }).click();
  await page.getByRole('button', { name: 'Expand scans/2024/march' }).click();
  await page.getByRole('checkbox', { name: `Select ${LONG_NAME}` }).check();
  for (const name of ['contract.pdf', LONG_NAME, 'page-2.png']) {
    const row = page.locator('tr', { has: page.getByRole('button', { name: `Download ${name}` }) });
    await expectOnScreen(page, row.getByText(name, { exact: true }), `the name ${name}`);
    await expectOnScreen(page, row.getByText(/KB$/), `the size of ${name}`);
    await expectOnScreen(page, row.getByRole('button', { name: `Download ${name}` }), `the Download of ${name}`);
  }
  for (const button of await toolbar.getByRole('button').all()) await expectOnScreen(page, button, `toolbar: ${await button.textContent()}`);
  await checkScreen(page, 'files');

  await toolbar.getByRole('button', { name: 'Delete Selected' }).click();
  const deleteFiles = page.getByRole('dialog', { name: 'Delete files' });
  await expectDialogFits(page, deleteFiles, 'delete-files dialog');
  await deleteFiles.getByRole('button', { name: 'Cancel' }).click();
  await expect(deleteFiles).toBeHidden();

  await toolbar.getByRole('button', { name: 'Create Download Link...' }).click();
  const unlock = page.getByRole('dialog', { name: 'Login Password Required' });
  await expectDialogFits(page, unlock, 'unlock dialog');
  await unlock.getByLabel('Login Password').fill(admin.password);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await unlock.getByRole('button', { name: 'Continue' }).click();
  const create = page.getByRole('dialog', { name: /download link/i });
  await expect(create.getByRole('form', { name: 'Create download link' })).toBeVisible();
  await expectDialogFits(page, create, 'create-link dialog');
  await shot(page, 'create-link-dialog');
  await create.getByRole('button', { name: 'Create Link' }).click();
  const ready = page.getByRole('dialog', { name: 'Download Link Ready' });
  await expect(ready.getByText('Remember to share the password separately!')).toBeVisible();
  await expectDialogFits(page, ready, 'link-ready dialog');
  await shot(page, 'link-ready-dialog');
  await ready.getByRole('button', { name: 'Close' }).click();
  await expect(ready).toBeHidden();
  await checkScreen(page, 'files-with-link');
});

test('the upload and the download page fit a phone at 390 px: queue, long names, targets', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, acceptDownloads: true });
  await withoutFileSystemAccess(context);
  const page = await context.newPage();
  const link = await linkWithFiles(browser, [
    { name: LONG_NAME, content: randomBytes(20_000) },
    { name: 'letter.txt', content: Buffer.from('dear client') },
  ]);
  await page.goto(link.url);
  await expect(page.getByText('Files ready for download:')).toBeVisible();
  await expectOnScreen(page, page.getByRole('button', { name: `Download ${LONG_NAME}` }), 'the Download button of the long name');
  await checkScreen(page, 'download');

  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  const admin = await createAdmin('a11y-phone-up');
  await signIn(ownerPage, admin);
  await giveAdminKeyPair(ownerPage, admin.password);
  const folder = await createFolder(ownerPage, 'Phone intake');
  await owner.close();
  await page.goto(`/upload/${folder.link_token}`);
  await expect(page.getByText('Drag and drop files or folders here')).toBeVisible();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-phone-'));
  const files = [LONG_NAME, 'a.txt', 'b.txt', 'c.txt', 'd.txt'].map((name) => {
    fs.writeFileSync(path.join(dir, name), randomBytes(3_000));
    return path.join(dir, name);
  });
  await page.getByTestId('file-input').setInputFiles(files);
  await expect(page.getByRole('list', { name: 'Files to upload' }).getByRole('listitem')).toHaveCount(5);
  await expectOnScreen(page, page.getByRole('button', { name: `Remove ${LONG_NAME}` }), 'the Remove button of the long name');
  await checkScreen(page, 'upload');
  await page.getByRole('button', { name: 'Upload 5 files' }).click();
  await expect(page.getByText('Upload successful! All 5 processed files received.')).toBeVisible({ timeout: 60_000 });
  await checkScreen(page, 'upload-finished');
  fs.rmSync(dir, { recursive: true, force: true });
  await context.close();
});
