// The product in German (issue 43, docs/i18n.md), in browsers whose language is German: the whole
// journey (an admin signs in, makes a folder and sees its link; an uploader sends a file through
// the upload page; the admin finds it on the files screen and makes a download link; a recipient
// downloads it byte for byte), every step found by its German text from the catalogue. Then a walk
// over every screen: no English text of the catalogue is left on it, axe finds nothing serious
// with lang="de", nothing scrolls sideways at 390 or 1280 px, and a German compound in the
// dashboard's title column is never broken between two letters. Last, the language menu: an
// English page switches to German on the spot, and the choice survives a reload.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';
import { E2E_DATA_DIR } from './support/environment.mjs';
import { expectAccessible } from './support/axe.ts';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { createFolder, giveAdminKeyPair, sha256, uploadFiles } from './support/files-seed.ts';
import { expectNoSidewaysScrolling } from './support/layout.ts';
import { invitationLinkFromOutbox, mailTextFromOutbox } from './support/outbox.ts';
import { expectNoEnglish } from './support/germanScreens.ts';
import { german, text } from './support/texts.ts';

const SHOTS_DIR = process.env.GERMAN_SHOTS_DIR;
const FOLDER_TITLE = 'Steuerunterlagen 2026';

async function germanContext(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  return browser.newContext({ locale: 'de-DE', viewport });
}

async function signInGerman(page: Page, account: AdminAccount): Promise<void> {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.getByLabel(german('Username'), { exact: true }).fill(account.username);
  await page.getByLabel(german('Password'), { exact: true }).fill(account.password);
  await page.getByRole('button', { name: text('de', 'signIn.password.submit') }).click();
  await expect(page.getByRole('heading', { name: german('Admin Dashboard') })).toBeVisible();
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** The signed-in admin's folder with this title, as the dashboard lists it. */
async function folderTitled(page: Page, title: string): Promise<{ id: number; link_token: string }> {
  const listed = (await (await page.request.get('/api/folders/')).json()) as Array<{ id: number; title: string; link_token: string }> | { items: Array<{ id: number; title: string; link_token: string }> };
  const folder = (Array.isArray(listed) ? listed : listed.items).find((item) => item.title === title);
  expect(folder, `the folder "${title}" is listed`).toBeTruthy();
  return folder!;
}

/** `word` inside the element's text is laid out on one line: not broken between two letters. */
async function expectWordOnOneLine(element: Locator, word: string): Promise<void> {
  const lines = await element.evaluate((root, target) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(target) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + target.length);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    }
    return -1;
  }, word);
  expect(lines, `"${word}" on one line`).toBe(1);
}

/** The German screen's checks: no English left, axe, no sideways scrolling; a screenshot for looking. */
async function checkScreen(page: Page, screen: string, userData: readonly string[] = []): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expectNoEnglish(page, screen, userData);
  await expectNoSidewaysScrolling(page, screen);
  await expectAccessible(page, `de-${screen}`);
  await shot(page, `${screen}-${page.viewportSize()?.width ?? 0}`);
}

test('the whole journey in German: admin, uploader and recipient', async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await createAdmin('deutsch');
  const adminContext = await germanContext(browser);
  const page = await adminContext.newPage();
  await signInGerman(page, admin);
  await giveAdminKeyPair(page, admin.password);

  // A folder through the German form.
  await page.getByRole('link', { name: german('+ Create New Folder') }).click();
  const form = page.getByRole('form', { name: german('Create folder') });
  await form.getByRole('textbox', { name: new RegExp(`^${german('Title')}`) }).fill(FOLDER_TITLE);
  await form.getByRole('button', { name: german('Create Folder') }).click();
  await expect(page.getByText(text('de', 'folders.create.done', { title: FOLDER_TITLE }))).toBeVisible();
  await expect(page.getByRole('link', { name: FOLDER_TITLE })).toBeVisible();
  const folder = await folderTitled(page, FOLDER_TITLE);

  // The uploader: the German upload page, one file.
  const uploaderContext = await germanContext(browser);
  const uploader = await uploaderContext.newPage();
  await uploader.goto(`/upload/${folder.link_token}`);
  await expect(uploader.getByRole('heading', { name: text('de', 'upload.page.titleForLink', { title: FOLDER_TITLE }) })).toBeVisible();
  // A PDF by its first bytes: the folder checks that contents match their names.
  const plain = Buffer.concat([Buffer.from('%PDF-1.7\n% Einkommensteuerbescheid 2025\n', 'utf8'), randomBytes(300_000)]);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-de-'));
  const filePath = path.join(directory, 'Bescheid 2025.pdf');
  fs.writeFileSync(filePath, plain);
  await uploader.getByTestId('file-input').setInputFiles(filePath);
  await checkScreen(uploader, 'upload-queued', [FOLDER_TITLE, 'Bescheid 2025.pdf']);
  await uploader.getByRole('button', { name: text('de', 'upload.workspace.uploadCount', { count: 1 }) }).click();
  await expect(uploader.getByText(text('de', 'upload.run.allReceived', { count: 1 }))).toBeVisible({ timeout: 60_000 });
  await checkScreen(uploader, 'upload-done', [FOLDER_TITLE, 'Bescheid 2025.pdf']);
  await uploaderContext.close();

  // The admin's files screen, and a download link for the file.
  await page.goto(`/folders/view/${folder.id}`);
  const table = page.getByRole('table', { name: german('Files') });
  await table.getByRole('checkbox', { name: text('de', 'files.tree.selectFile', { path: 'Bescheid 2025.pdf' }) }).check();
  await page.getByRole('button', { name: german('Create Download Link...') }).click();
  // The private key is unlocked first, in German too.
  const unlock = page.getByRole('dialog', { name: german('Login Password Required') });
  await unlock.getByLabel(german('Login Password'), { exact: true }).fill(admin.password);
  await unlock.getByRole('button', { name: german('Unlock') }).click();
  await unlock.getByRole('button', { name: german('Continue') }).click({ timeout: 60_000 });
  const dialog = page.getByRole('dialog', { name: german('Create Download Link') });
  const linkPassword = await dialog.getByLabel(text('de', 'links.create.password'), { exact: true }).inputValue();
  await checkScreen(page, 'create-link-dialog', [FOLDER_TITLE, 'Bescheid 2025.pdf', linkPassword]);
  await dialog.getByRole('button', { name: german('Create Link') }).click();
  const ready = page.getByRole('dialog', { name: german('Download Link Ready') });
  const linkUrl = await ready.getByRole('textbox', { name: text('de', 'links.ready.link') }).inputValue({ timeout: 60_000 });
  await checkScreen(page, 'link-ready-dialog', [FOLDER_TITLE, 'Bescheid 2025.pdf', linkPassword, linkUrl]);
  await adminContext.close();

  // The recipient: German download page, the service worker's download, the same bytes.
  const recipientContext = await germanContext(browser);
  await withoutFileSystemAccess(recipientContext);
  const recipient = await recipientContext.newPage();
  await recipient.goto(linkUrl);
  await recipient.getByLabel(text('de', 'recipient.password.field'), { exact: true }).fill(linkPassword);
  await checkScreen(recipient, 'download-password', [linkPassword]);
  await recipient.getByRole('button', { name: german('Unlock Files') }).click();
  await expect(recipient.getByText(german('Files ready for download:'))).toBeVisible({ timeout: 60_000 });
  await checkScreen(recipient, 'download-ready', ['Bescheid 2025.pdf']);
  const row = recipient.getByRole('list', { name: text('de', 'recipient.ready.sharedFiles') }).getByRole('listitem', { name: 'Bescheid 2025.pdf', exact: true });
  const started = recipient.waitForEvent('download', { timeout: 90_000 });
  await row.getByRole('button').click();
  const received = fs.readFileSync(await (await started).path());
  expect(sha256(received)).toBe(sha256(plain));
  await recipientContext.close();
});

test('every screen in German: no English left, accessible, nothing cut off at 390 and 1280 px', async ({ browser }) => {
  // Every screen at two widths with axe: 4.6 minutes beside two heavy specs on the slowest machines.
  test.setTimeout(480_000);
  const admin = await createAdmin('deutsch-walk');
  for (const width of [1280, 390]) {
    const context = await germanContext(browser, { width, height: width === 390 ? 844 : 900 });
    const page = await context.newPage();
    const userData = [admin.username, FOLDER_TITLE, 'Vertrag.pdf', 'Belege'];

    await page.goto('/login');
    await checkScreen(page, 'login', userData);
    await signInGerman(page, admin);
    if (width === 1280) {
      const publicKey = await giveAdminKeyPair(page, admin.password);
      const folder = await createFolder(page, FOLDER_TITLE);
      await uploadFiles(folder.link_token, publicKey, [
        { dir: '.', name: 'Vertrag.pdf', content: Buffer.from('Vertrag') },
        { dir: 'Belege', name: 'Quittung.txt', content: Buffer.from('Quittung') },
      ]);
      await page.reload();
    }
    const folderLink = page.getByRole('link', { name: FOLDER_TITLE });
    await expect(folderLink.first()).toBeVisible();
    await checkScreen(page, 'dashboard', userData);
    // The title column wraps "Steuerunterlagen 2026" between its words, never inside the compound.
    await expectWordOnOneLine(folderLink.first(), 'Steuerunterlagen');

    const folderId = await folderLink.first().evaluate((link) => Number(/\/folders\/view\/(\d+)/.exec(link.getAttribute('href') ?? '')?.[1]));
    await page.goto(`/folders/view/${folderId}`);
    await expect(page.getByText('Vertrag.pdf').first()).toBeVisible();
    await checkScreen(page, 'files', userData);
    await page.goto(`/folders/edit/${folderId}`);
    await expect(page.getByRole('form', { name: german('Edit folder') })).toBeVisible();
    await checkScreen(page, 'folder-edit', userData);
    await page.goto('/folders/new');
    await expect(page.getByRole('form', { name: german('Create folder') })).toBeVisible();
    await checkScreen(page, 'folder-new', userData);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkScreen(page, 'profile', userData);
    await page.goto('/activity');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkScreen(page, 'activity', userData);
    await page.goto('/members');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkScreen(page, 'members', userData);
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkScreen(page, 'about', userData);
    await page.goto('/no-such-screen');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkScreen(page, 'not-found', userData);

    // The public pages, without a session.
    const anonymous = await germanContext(browser, { width, height: width === 390 ? 844 : 900 });
    const visitor = await anonymous.newPage();
    await visitor.goto(`/upload/${(await folderTitled(page, FOLDER_TITLE)).link_token}`);
    await expect(visitor.getByRole('heading', { name: text('de', 'upload.page.titleForLink', { title: FOLDER_TITLE }) })).toBeVisible();
    await expectWordOnOneLine(visitor.getByRole('heading', { level: 1 }), 'Steuerunterlagen');
    await checkScreen(visitor, 'upload', userData);
    await visitor.goto('/download/no-such-link#k=x');
    await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
    await checkScreen(visitor, 'download-invalid', userData);
    await anonymous.close();
    await context.close();
  }
});

test('the upload gates, the code e-mail and the invitation in German', async ({ browser }) => {
  const admin = await createAdmin('deutsch-gates', undefined, 'admin');
  const context = await germanContext(browser, { width: 390, height: 844 });
  const page = await context.newPage();
  await signInGerman(page, admin);
  const headers = { 'x-csrftoken': (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '' };
  const created = await page.request.post('/api/folders/', { data: { title: 'Belege für die Kanzlei', link_password: 'Sonnenblume25-417', require_email_verification: true }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const gated = (await created.json()) as { link_token: string };

  const visitor = await (await germanContext(browser, { width: 390, height: 844 })).newPage();
  await visitor.goto(`/upload/${gated.link_token}`);
  const passwordGate = visitor.getByRole('form', { name: text('de', 'upload.passwordGate.label') });
  await expect(passwordGate).toBeVisible();
  await checkScreen(visitor, 'upload-password-gate', ['Belege für die Kanzlei']);
  await passwordGate.getByLabel(text('de', 'upload.passwordGate.label')).fill('Sonnenblume25-417');
  await passwordGate.locator('button[type=submit]').click();
  const email = `mandant-${randomBytes(3).toString('hex')}@example.com`;
  const emailField = visitor.getByLabel(german('Your e-mail address'));
  await emailField.fill(email);
  await checkScreen(visitor, 'upload-email-gate', ['Belege für die Kanzlei', email]);
  await visitor.getByRole('button', { name: german('Send Code') }).click();
  await expect(visitor.getByRole('textbox', { name: german('Verification code') })).toBeVisible();
  await checkScreen(visitor, 'upload-code-gate', ['Belege für die Kanzlei', email]);
  // The code's e-mail is written in the uploader's language.
  const codeMail = await mailTextFromOutbox(E2E_DATA_DIR, email);
  expect(codeMail).toContain(text('de', 'email.code.intro', { title: 'Belege für die Kanzlei' }));

  // An invitation from an admin who chose German: the e-mail and the invitation page in German.
  expect((await page.request.put('/api/auth/users/me/language', { data: { language: 'de' }, headers })).status()).toBe(204);
  const invitee = `kollegin-${randomBytes(3).toString('hex')}@example.com`;
  expect((await page.request.post('/api/org/invitations', { data: { email: invitee }, headers })).status()).toBe(201);
  expect(await mailTextFromOutbox(E2E_DATA_DIR, invitee)).toContain(text('de', 'email.invitation.subject'));
  const link = await invitationLinkFromOutbox(E2E_DATA_DIR, invitee);
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
  await checkScreen(visitor, 'invitation', [invitee, admin.username]);
  await context.close();
});

test('the language menu switches an English page to German at once, and the choice is remembered', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByLabel('Username', { exact: true }).fill('typed before the switch');
  await page.getByRole('button', { name: text('en', 'layout.languageMenu', { language: 'English' }) }).click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('button', { name: text('de', 'signIn.password.submit') })).toBeVisible();
  // The page was not rebuilt: what was typed is still there.
  await expect(page.getByLabel(german('Username'), { exact: true })).toHaveValue('typed before the switch');
  await page.reload();
  await expect(page.getByLabel(german('Username'), { exact: true })).toBeVisible();
  await page.getByRole('button', { name: text('de', 'layout.languageMenu', { language: 'Deutsch' }) }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await context.close();
});

test("a browser with no language of its own opens in the account's after signing in; one that chose keeps its own", async ({ browser }) => {
  const admin = await createAdmin('konto-sprache');
  const first = await browser.newContext({ locale: 'en-US' });
  const firstPage = await first.newPage();
  await signIn(firstPage, admin);
  // Chosen in the menu while signed in: the page switches, and the account keeps the choice.
  await firstPage.getByRole('button', { name: text('en', 'layout.languageMenu', { language: 'English' }) }).click();
  const saved = firstPage.waitForResponse((response) => response.url().endsWith('/api/auth/users/me/language') && response.request().method() === 'PUT');
  await firstPage.getByRole('menuitem', { name: 'Deutsch' }).click();
  expect((await saved).status()).toBe(204);
  await expect(firstPage.getByRole('heading', { name: german('Admin Dashboard') })).toBeVisible();
  await first.close();

  const elsewhere = await browser.newContext({ locale: 'en-US' });
  const page = await elsewhere.newPage();
  // Signed in through the English form; the dashboard then opens in German.
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: german('Admin Dashboard') })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await elsewhere.close();

  const chosen = await browser.newContext({ locale: 'en-US' });
  const chosenPage = await chosen.newPage();
  await chosenPage.goto('/login');
  await chosenPage.evaluate((key) => localStorage.setItem(key, 'en'), 'sealdrop.language');
  await signIn(chosenPage, admin);
  await expect(chosenPage.locator('html')).toHaveAttribute('lang', 'en');
  await chosen.close();
});
