// Folders in the real browser against the real server: create with a password, e-mail verification
// and an allowed list; see it on the dashboard; sort by each column; edit (password kept, then
// removed); copy the upload link; delete. Plus the display of every status and the edit screen's
// error cases, with screenshots of the finished screens.
//
// File rows (for "Last Upload" and "New files") are inserted through the server's own repositories
// on the e2e database, as the upload feature will write them.
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { openDatabase } from '../server/db/connection.ts';
import { createRepositories, type Repositories } from '../server/db/repositories/index.ts';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';
import { E2E_DATA_DIR } from './support/environment.mjs';

const SHOTS_DIR = process.env.FOLDERS_SHOTS_DIR;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function withRepos<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
  const database = await openDatabase({ kind: 'sqlite', file: path.join(E2E_DATA_DIR, 'sealdrop.db') });
  try {
    return await work(createRepositories(database.db));
  } finally {
    await database.close();
  }
}

let fileCounter = 0;
async function addFile(folderId: number, uploadTime: number): Promise<void> {
  fileCounter += 1;
  await withRepos((repos) =>
    repos.files.create({
      folderId,
      originalFilename: `scan-${fileCounter}.pdf`,
      storedFilename: `upload/scan-${fileCounter}.pdf`,
      relativePath: '.',
      fileSize: 2048,
      fileHash: 'c'.repeat(64),
      encryptedKey: 'a2V5',
      encryptionIv: 'aXY=',
      blobKey: `e2e/${Date.now()}-${fileCounter}`,
      uploadTime,
    }),
  );
}

interface FolderJson {
  id: number;
  title: string;
  has_password: boolean;
  require_email_verification: boolean;
  allowed_emails: string[] | null;
  perform_mime_check: boolean;
  expiration_date: string | null;
  is_active: boolean;
  link_token: string;
  description: string | null;
}

/** The API as the signed-in page sees it (same cookies), with the CSRF header on writes. */
async function api(page: Page) {
  const request: APIRequestContext = page.request;
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  return {
    async folders(): Promise<FolderJson[]> {
      const response = await request.get('/api/folders/');
      expect(response.status()).toBe(200);
      return response.json();
    },
    async create(data: Record<string, unknown>): Promise<FolderJson> {
      const response = await request.post('/api/folders/', { data, headers: { 'x-csrftoken': csrf } });
      expect(response.status(), await response.text()).toBe(201);
      return response.json();
    },
    async update(id: number, data: Record<string, unknown>): Promise<FolderJson> {
      const response = await request.put(`/api/folders/${id}`, { data, headers: { 'x-csrftoken': csrf } });
      expect(response.status(), await response.text()).toBe(200);
      return response.json();
    },
    async status(id: number): Promise<number> {
      return (await request.get(`/api/folders/${id}`)).status();
    },
  };
}

function row(page: Page, title: string) {
  return page.getByRole('row').filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

async function titleColumn(page: Page): Promise<string[]> {
  return page.getByRole('table', { name: 'Folders' }).locator('tbody tr td:first-child a').allTextContents();
}

async function sortBy(page: Page, column: string) {
  const header = page.getByRole('columnheader', { name: column });
  const before = await header.getAttribute('aria-sort');
  await header.getByRole('button').click();
  await expect(header).not.toHaveAttribute('aria-sort', before ?? 'none');
}

async function expectOrder(page: Page, titles: string[]) {
  await expect.poll(() => titleColumn(page)).toEqual(titles);
}

async function shot(page: Page, name: string, testInfo: { outputPath(name: string): string }) {
  const file = SHOTS_DIR ? path.join(SHOTS_DIR, name) : testInfo.outputPath(name);
  await page.screenshot({ path: file, fullPage: true });
}

test('an admin creates, sorts, edits, copies and deletes folders', async ({ page, context }, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const admin = await createAdmin('folders');
  await signIn(page, admin);
  await expect(page.getByText('No folders found')).toBeVisible();
  await expect(page.getByText('Get started by creating a new upload folder.')).toBeVisible();
  await shot(page, 'dashboard-empty.png', testInfo);

  // Create a folder with a password, e-mail verification and an allowed list (default: 30 days).
  await page.getByRole('link', { name: '+ Create New Folder' }).click();
  await expect(page.getByRole('heading', { name: 'Create New Upload Folder' })).toBeVisible();
  await expect(page.getByLabel('Expires in (days)')).toHaveValue('30');
  await page.getByLabel('Title', { exact: false }).first().fill('Quarterly reports');
  await page.getByLabel('Description').fill('Scans of the signed reports');
  await page.getByLabel('Protect the upload link with a password').check();
  await expect(page.getByLabel('Confirm link password')).toBeDisabled();
  await page.getByLabel('Link password', { exact: true }).fill('Sonnenblume25-417');
  await page.getByLabel('Confirm link password').fill('Sonnenblume25-417');
  await page.getByLabel('Require e-mail verification').check();
  await page.getByLabel('Allowed e-mails').fill('anna@example.com, , ben@example.org');
  const createdAt = Date.now();
  await page.getByRole('button', { name: 'Create Folder' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Folder "Quarterly reports" created successfully!')).toBeVisible();

  const reports = row(page, 'Quarterly reports');
  await expect(reports.getByText('Active')).toBeVisible();
  await expect(reports.getByText('Password')).toBeVisible();
  await expect(reports.getByText('E-mail verification')).toBeVisible();
  await expect(reports.getByText('2 allowed addresses')).toBeVisible();
  await expect(reports.getByText('Scans of the signed reports')).toBeVisible();
  const [stored] = await (await api(page)).folders();
  expect(stored).toMatchObject({
    title: 'Quarterly reports',
    has_password: true,
    require_email_verification: true,
    allowed_emails: ['anna@example.com', 'ben@example.org'],
    perform_mime_check: true,
    is_active: true,
  });
  const expiresIn = Date.parse(stored!.expiration_date!) - createdAt;
  expect(Math.abs(expiresIn - 30 * DAY)).toBeLessThan(60_000);

  // Two more folders through the form: one expiring on a date, one that never expires.
  await page.getByRole('link', { name: '+ Create New Folder' }).click();
  await page.getByLabel('Title', { exact: false }).first().fill('alpha uploads');
  await page.getByLabel('On a date').check();
  await expect(page.getByLabel('Expires in (days)')).toHaveCount(0);
  const inThreeDays = new Date(Date.now() + 3 * DAY);
  const local = new Date(inThreeDays.getTime() - inThreeDays.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  await page.getByLabel('Expiration date').fill(local);
  await page.getByRole('button', { name: 'Create Folder' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(row(page, 'alpha uploads')).toBeVisible();

  await page.getByRole('link', { name: '+ Create New Folder' }).click();
  await page.getByLabel('Title', { exact: false }).first().fill('Zeta archive');
  await page.getByLabel('Never expires').check();
  await page.getByRole('button', { name: 'Create Folder' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(row(page, 'Zeta archive').getByText('Never')).toBeVisible();

  // Uploads: Zeta an hour ago, the reports two hours ago, alpha none.
  const folders = await (await api(page)).folders();
  const idOf = (title: string) => folders.find((folder) => folder.title === title)!.id;
  await addFile(idOf('Zeta archive'), Date.now() - HOUR);
  await addFile(idOf('Quarterly reports'), Date.now() - 2 * HOUR);
  await page.reload();
  await expect(row(page, 'Zeta archive').getByText('New files')).toBeVisible();
  await expect(row(page, 'alpha uploads').getByText('New files')).toHaveCount(0);
  await expect(row(page, 'alpha uploads').getByRole('cell').nth(3)).toHaveText('-');

  // Sorting: default creation date, newest first; then each column both ways.
  await expectOrder(page, ['Zeta archive', 'alpha uploads', 'Quarterly reports']);
  await sortBy(page, 'Title');
  await expectOrder(page, ['alpha uploads', 'Quarterly reports', 'Zeta archive']);
  await sortBy(page, 'Title');
  await expectOrder(page, ['Zeta archive', 'Quarterly reports', 'alpha uploads']);
  await sortBy(page, 'Created');
  await expectOrder(page, ['Zeta archive', 'alpha uploads', 'Quarterly reports']);
  await sortBy(page, 'Created');
  await expectOrder(page, ['Quarterly reports', 'alpha uploads', 'Zeta archive']);
  await sortBy(page, 'Expires');
  await expectOrder(page, ['Zeta archive', 'Quarterly reports', 'alpha uploads']);
  await sortBy(page, 'Expires');
  await expectOrder(page, ['alpha uploads', 'Quarterly reports', 'Zeta archive']);
  await sortBy(page, 'Last Upload');
  await expectOrder(page, ['Zeta archive', 'Quarterly reports', 'alpha uploads']);
  await sortBy(page, 'Last Upload');
  await expectOrder(page, ['alpha uploads', 'Quarterly reports', 'Zeta archive']);

  // Edit, leaving the password option unticked: the password is kept.
  await row(page, 'Quarterly reports').getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Upload Folder: Quarterly reports' })).toBeVisible();
  await expect(page.getByLabel('On a date')).toBeChecked();
  await expect(page.getByLabel('Allowed e-mails')).toHaveValue('anna@example.com, ben@example.org');
  await expect(page.getByLabel('Change or remove the link password')).not.toBeChecked();
  await expect(page.getByLabel('Folder is active')).toBeChecked();
  await page.getByLabel('Description').fill('Signed reports, Q1 to Q4');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Folder "Quarterly reports" updated successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(row(page, 'Quarterly reports').getByText('Signed reports, Q1 to Q4')).toBeVisible();
  await expect(row(page, 'Quarterly reports').getByText('Password')).toBeVisible();
  let reportsNow = (await (await api(page)).folders()).find((folder) => folder.id === idOf('Quarterly reports'))!;
  expect(reportsNow).toMatchObject({ has_password: true, expiration_date: stored!.expiration_date });

  // Edit again, ticking the option with a blank field: the password is removed.
  await row(page, 'Quarterly reports').getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Upload Folder: Quarterly reports' })).toBeVisible();
  await page.getByLabel('Change or remove the link password').check();
  await expect(page.getByLabel('New link password')).toHaveValue('');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(row(page, 'Quarterly reports').getByText('Password')).toHaveCount(0);
  reportsNow = (await (await api(page)).folders()).find((folder) => folder.id === idOf('Quarterly reports'))!;
  expect(reportsNow.has_password).toBe(false);

  // Copy Link puts {origin}/upload/{link_token} on the clipboard and reads 'Copied!' for 2 s.
  const zeta = folders.find((folder) => folder.title === 'Zeta archive')!;
  await row(page, 'Zeta archive').getByRole('button', { name: 'Copy Link' }).click();
  await expect(row(page, 'Zeta archive').getByRole('button', { name: 'Copied!' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`${new URL(page.url()).origin}/upload/${zeta.link_token}`);
  await expect(row(page, 'Zeta archive').getByRole('button', { name: 'Copy Link' })).toBeVisible({ timeout: 4000 });

  // Delete with the confirmation; the row and the folder are gone.
  await row(page, 'alpha uploads').getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Are you sure you want to delete the folder "alpha uploads"? This action cannot be undone.');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'alpha uploads')).toHaveCount(0);
  await expect(page.getByText('Folder "alpha uploads" deleted.')).toBeVisible();
  expect(await (await api(page)).status(idOf('alpha uploads'))).toBe(404);
  expect((await (await api(page)).folders()).map((folder) => folder.title).sort()).toEqual(['Quarterly reports', 'Zeta archive']);
});

test('the dashboard shows active, inactive, expired and untitled folders', async ({ page }, testInfo) => {
  const admin: AdminAccount = await createAdmin('statuses');
  await signIn(page, admin);
  const client = await api(page);
  const now = Date.now();
  const inactive = await client.create({
    title: 'Supplier invoices 2024',
    description: 'Closed for the year',
    expires_in_days: 90,
  });
  await client.update(inactive.id, { title: 'Supplier invoices 2024', is_active: false });
  await client.create({ title: 'Board minutes', expiration_date: new Date(now - 2 * DAY).toISOString(), link_password: 'old-secret-123' });
  const untitled = await client.create({ title: 'placeholder', require_email_verification: true });
  await withRepos(async (repos) => {
    const owner = await repos.users.findByUsername(admin.username);
    await repos.folders.updateOwned(owner!.id, untitled.id, { title: '' }); // the API refuses blank titles
  });
  const active = await client.create({
    title: 'Client onboarding documents',
    description: 'ID scans and signed contracts from new clients',
    link_password: 'Sonnenblume25-417',
    require_email_verification: true,
    allowed_emails: ['anna@example.com', 'ben@example.org'],
    expires_in_days: 30,
  });
  await addFile(active.id, now - 3 * HOUR);
  await addFile(inactive.id, now - 40 * DAY);

  await page.reload();
  await expect(page.getByRole('table', { name: 'Folders' })).toBeVisible();
  await expect(row(page, 'Client onboarding documents').getByText('Active', { exact: true })).toBeVisible();
  await expect(row(page, 'Supplier invoices 2024').getByText('Inactive')).toBeVisible();
  await expect(row(page, 'Board minutes').getByText('Expired')).toBeVisible();
  const untitledRow = row(page, '(No Title)');
  await expect(untitledRow.getByText('Active', { exact: true })).toBeVisible();
  await expect(untitledRow.getByText('Never')).toBeVisible();
  await expect(untitledRow.getByRole('cell').nth(3)).toHaveText('-');
  await expect(row(page, 'Client onboarding documents').getByText('New files')).toBeVisible();
  // Dates in the browser's locale, with seconds.
  const created = await row(page, 'Client onboarding documents').getByRole('cell').nth(1).textContent();
  expect(created).toMatch(/\d{1,2}:\d{2}:\d{2}/);
  await shot(page, 'dashboard.png', testInfo);

  await row(page, '(No Title)').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog')).toContainText('Are you sure you want to delete the folder "(No Title)"? This action cannot be undone.');
  await shot(page, 'dashboard-delete-confirmation.png', testInfo);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('link', { name: '+ Create New Folder' }).click();
  await page.getByLabel('Title', { exact: false }).first().fill('Due diligence data room');
  await page.getByLabel('Description').fill('Financial statements and contracts for the buyer');
  await page.getByLabel('Protect the upload link with a password').check();
  await page.getByLabel('Link password', { exact: true }).fill('Wolke42-318');
  await page.getByLabel('Confirm link password').fill('Wolke42-319');
  await page.getByLabel('Require e-mail verification').check();
  await page.getByLabel('Allowed e-mails').fill('cfo@example.com, legal@example.org');
  await page.getByRole('button', { name: 'Create Folder' }).click();
  await expect(page.getByText('Passwords do not match.')).toBeVisible();
  await shot(page, 'create-form.png', testInfo);

  await page.goto(`/folders/edit/${active.id}`);
  await expect(page.getByRole('heading', { name: 'Edit Upload Folder: Client onboarding documents' })).toBeVisible();
  await shot(page, 'edit-form.png', testInfo);
});

test("the edit screen's error cases", async ({ page }) => {
  const owner = await createAdmin('owner');
  await signIn(page, owner);
  const theirs = await (await api(page)).create({ title: 'Not yours' });

  const other = await createAdmin('other');
  await page.context().clearCookies();
  await signIn(page, other);
  await page.goto('/folders/edit/abc');
  await expect(page.getByText('Invalid Folder ID')).toBeVisible();
  await page.goto('/folders/edit/999999');
  await expect(page.getByText('Folder not found or could not be loaded.')).toBeVisible();
  // Another admin's folder looks exactly like a missing one.
  await page.goto(`/folders/edit/${theirs.id}`);
  await expect(page.getByText('Folder not found or could not be loaded.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Edit Upload Folder' })).toBeVisible();
});
