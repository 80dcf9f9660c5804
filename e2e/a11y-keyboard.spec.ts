// The keyboard alone (issue 29, WCAG 2.1.1 and 2.4.7): every kind of control shows a focus ring of
// at least 2 px in the navy of the theme when reached with Tab; an uploader picks files, uploads
// them and saves the receipt, and a recipient unlocks a link, downloads a file and the ZIP, using
// nothing but page.keyboard (the operating system's file dialog is answered through Playwright's
// file chooser, as a person would answer it). Pointer clicks are not used anywhere in this spec.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type FileChooser, type Locator, type Page } from '@playwright/test';
import { createAdmin, signIn } from './support/admin.ts';
import { createFolder, giveAdminKeyPair, uploadFiles } from './support/files-seed.ts';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { linkWithFiles } from './support/link-seed.ts';
import { withoutOpenPickers } from './support/openPickers.ts';

const NAVY = 'rgb(30, 58, 95)';
/** More than any screen here has focusable elements before the one a test wants. */
const MAX_TABS = 60;

/** Presses Tab until `target` has the focus (or the element that holds it, for a checkbox's input). */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < MAX_TABS; presses++) {
    if (await target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The ring of the focused control: on the element itself, or (checkboxes, radios) on MUI's visible control around the focused input. */
async function focusRing(page: Page): Promise<{ tag: string; style: string; width: number; colour: string }> {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const shown = focused.tagName === 'INPUT' && ['checkbox', 'radio'].includes((focused as HTMLInputElement).type) ? focused.closest('.MuiButtonBase-root')! : focused;
    const style = getComputedStyle(shown);
    return { tag: `${shown.tagName.toLowerCase()}.${shown.className.toString().split(' ')[0]}`, style: style.outlineStyle, width: parseFloat(style.outlineWidth), colour: style.outlineColor };
  });
}

async function expectRing(page: Page, what: string): Promise<void> {
  const ring = await focusRing(page);
  expect(ring.style, `${what}: ${JSON.stringify(ring)}`).toBe('solid');
  expect(ring.width, `${what}: ${JSON.stringify(ring)}`).toBeGreaterThanOrEqual(2);
  expect(ring.colour, `${what}: ${JSON.stringify(ring)}`).toBe(NAVY);
}

test('a focus ring of at least 2 px shows on buttons, links, checkboxes, radios, sort headers and icon buttons', async ({ page }) => {
  await page.goto('/login');
  const signInButton = page.getByRole('button', { name: 'Sign In' });
  await expect(signInButton).toBeVisible();
  await tabTo(page, signInButton);
  await expectRing(page, 'a button');

  const admin = await createAdmin('a11y-focus');
  await signIn(page, admin);
  const publicKey = await giveAdminKeyPair(page, admin.password);
  const folder = await createFolder(page, 'Focus check');
  await uploadFiles(folder.link_token, publicKey, [{ dir: 'scans', name: 'page-1.png', content: Buffer.from('page one') }]);

  await page.goto('/dashboard');
  await tabTo(page, page.getByRole('columnheader', { name: /Title/ }).getByRole('button'));
  await expectRing(page, 'a sort header');
  await tabTo(page, page.getByRole('link', { name: 'Focus check' }));
  await expectRing(page, 'a link');

  await page.goto('/folders/new');
  await expect(page.getByRole('form', { name: 'Create folder' })).toBeVisible();
  await tabTo(page, page.getByRole('checkbox', { name: 'Protect the upload link with a password' }));
  await expectRing(page, 'a checkbox');
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: 'Protect the upload link with a password' })).toBeChecked();
  await tabTo(page, page.getByRole('radio', { name: 'After a number of days' }));
  await expectRing(page, 'a radio');

  await page.goto(`/folders/view/${folder.id}`);
  await tabTo(page, page.getByRole('button', { name: 'Expand scans' }));
  await expectRing(page, 'an icon button');
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('checkbox', { name: 'Select scans/page-1.png' }));
  await expectRing(page, 'a checkbox in the tree');
});

/**
 * The file choosers the page opens, caught from before the page loads. Playwright turns on the
 * browser's file-chooser interception when a listener is added, and a waitForEvent set up right
 * before the key press could lose that race under load: the dialog then opened natively (headless,
 * never answered) and blocked every later one, so a second Enter opened nothing either.
 */
function catchFileChoosers(page: Page): () => Promise<FileChooser> {
  const caught: FileChooser[] = [];
  page.on('filechooser', (chooser) => caught.push(chooser));
  return async () => {
    await expect.poll(() => caught.length, { message: 'a file chooser opened', timeout: 10_000 }).toBeGreaterThan(0);
    return caught.shift()!;
  };
}

test('an uploader picks files, uploads them and saves the receipt with the keyboard alone', async ({ page, browser }) => {
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  const admin = await createAdmin('a11y-kbd-up');
  await signIn(ownerPage, admin);
  await giveAdminKeyPair(ownerPage, admin.password);
  const folder = await createFolder(ownerPage, 'Keyboard intake');
  await owner.close();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-keyboard-'));
  const files = ['statement.pdf', 'photo.jpg'].map((name) => {
    fs.writeFileSync(path.join(dir, name), randomBytes(20_000));
    return path.join(dir, name);
  });
  // The plain file input (as in Firefox): its dialog is the operating system's, which Playwright answers.
  await withoutOpenPickers(page);
  const nextFileChooser = catchFileChoosers(page);
  await page.goto(`/upload/${folder.link_token}`);
  await expect(page.getByText('Drag and drop files or folders here')).toBeVisible();

  await tabTo(page, page.getByRole('button', { name: 'Select Files' }));
  await expectRing(page, 'Select Files');
  await page.keyboard.press('Enter');
  await (await nextFileChooser()).setFiles(files);
  const upload = page.getByRole('button', { name: 'Upload 2 files' });
  await tabTo(page, upload);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Upload successful! All 2 processed files received.')).toBeVisible({ timeout: 60_000 });

  await tabTo(page, page.getByRole('button', { name: 'Download Receipt' }));
  const receipt = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const saved = await receipt;
  const text = fs.readFileSync((await saved.path())!, 'utf8');
  expect(text).toContain('statement.pdf');
  expect(text).toContain('photo.jpg');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a recipient unlocks a link, downloads a file and the ZIP with the keyboard alone', async ({ browser }) => {
  const password = 'Sonnenblume25-417';
  const link = await linkWithFiles(
    browser,
    [
      { name: 'letter.txt', content: Buffer.from('dear client') },
      { name: 'scan.pdf', content: Buffer.from('a scan') },
    ],
    { password },
  );
  const context = await browser.newContext({ acceptDownloads: true });
  await withoutFileSystemAccess(context);
  const page = await context.newPage();
  await page.goto(link.url);
  const field = page.getByLabel('Password');
  await expect(field).toBeFocused();
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Files ready for download:')).toBeVisible();

  const fileButton = page.getByRole('button', { name: 'Download letter.txt' });
  await tabTo(page, fileButton);
  await expectRing(page, 'a file download button');
  const single = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const file = await single;
  expect(file.suggestedFilename()).toBe('letter.txt');
  expect(fs.readFileSync((await file.path())!, 'utf8')).toBe('dear client');
  await expect(page.getByTestId('live-announcer')).toHaveText('letter.txt downloaded.');

  await tabTo(page, page.getByRole('button', { name: 'Download All as ZIP' }));
  const zip = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await zip).suggestedFilename()).toBe('download-archive.zip');
  await context.close();
});
