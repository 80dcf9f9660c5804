// Accessibility of the admin screens (issue 29, docs/accessibility.md): axe-core with the WCAG
// 2.0–2.2 A/AA rules (e2e/support/axe.ts) over every screen and state of the spec's route table
// an admin sees: the login's two steps and their errors, the dashboard with its delete
// confirmation, the folder form new and edited with every access option, the files screen with a
// nested tree, selection, filter and every dialog, the 404 screen, and notifications of every kind.
// Fails on any critical or serious violation. Each test seeds once and walks its states on the same
// data. The profile is in a11y-profile.spec.ts, the public pages in a11y-public.spec.ts, the phone
// layouts in a11y-phone.spec.ts, the keyboard in a11y-keyboard.spec.ts.
import { expect, test, type Page } from '@playwright/test';
import { createAdmin, signIn } from './support/admin.ts';
import { expectAccessible } from './support/axe.ts';
import { createFolder, giveAdminKeyPair, uploadFiles } from './support/files-seed.ts';
import { enableTwoFactor } from './support/twoFactorSeed.ts';

// The axe sweeps look at the app with its default motion, as most people see it (the rest of the
// suite asks for reduced motion: e2e/support/environment.mjs).
test.use({ reducedMotion: 'no-preference' });

async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  return { 'x-csrftoken': csrf };
}

/** Makes every Copy button fail, as a browser that refuses clipboard access does. */
async function refuseClipboard(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } });
  });
}

test('login, both steps and their errors, and the 404 screen', async ({ page, browser }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expectAccessible(page, 'login');

  const admin = await createAdmin('a11y-login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  const required = page.getByRole('main').getByText('Please enter your username and password.');
  await expect(required).toBeVisible();
  await expect(page.getByLabel('Username', { exact: true }), 'the error is tied to the fields').toHaveAccessibleDescription('Please enter your username and password.');
  await page.getByLabel('Username', { exact: true }).fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('main').getByText('Incorrect username or password.')).toBeVisible();
  await expectAccessible(page, 'login-error');

  await enableTwoFactor(browser, admin);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const code = page.getByLabel('Authentication Code', { exact: true });
  await expect(code).toBeVisible();
  await expectAccessible(page, 'login-code');
  await code.fill('000000');
  await page.getByRole('button', { name: 'Verify Code' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'login-code-error');

  await page.goto('/no-such-screen');
  await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible();
  await expectAccessible(page, 'not-found');
});

test('the dashboard, its delete confirmation, the folder form new and edited with every access option, the activity log, and notifications of every kind', async ({ page }) => {
  const admin = await createAdmin('a11y-dash');
  await signIn(page, admin);
  const publicKey = await giveAdminKeyPair(page, admin.password);
  const headers = await csrfHeaders(page);
  const gated = await page.request.post('/api/folders/', {
    data: {
      title: 'Gated intake',
      description: 'Scans for the accountant',
      link_password: 'Sonnenblume25-417',
      require_email_verification: true,
      allowed_emails: ['anna@example.com', 'ben@example.org'],
      expiration_date: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    },
    headers,
  });
  expect(gated.status(), await gated.text()).toBe(201);
  const gatedFolder = (await gated.json()) as { id: number };
  const closed = await createFolder(page, 'Closed intake');
  expect((await page.request.put(`/api/folders/${closed.id}`, { data: { title: 'Closed intake', is_active: false }, headers })).status()).toBe(200);
  const withFiles = await createFolder(page, 'Client intake');
  await uploadFiles(withFiles.link_token, publicKey, [{ dir: '.', name: 'contract.pdf', content: Buffer.from('contract') }]);

  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: 'Gated intake' })).toBeVisible();
  await expect(page.getByText('New files')).toBeVisible();
  await expectAccessible(page, 'dashboard');

  await page.locator(`[data-folder-id="${closed.id}"]`).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete folder' });
  await expect(confirm).toContainText('Are you sure you want to delete the folder "Closed intake"? This action cannot be undone.');
  await expectAccessible(page, 'dashboard-delete-dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();

  // The error notification: assertive (role="alert"), in the theme's red.
  await refuseClipboard(page);
  await page.locator(`[data-folder-id="${withFiles.id}"]`).getByRole('button', { name: 'Copy Link' }).click();
  await expect(page.locator('.notistack-MuiContent-error')).toContainText('Failed to copy link to clipboard.');
  await expect(page.locator('.notistack-MuiContent-error')).toHaveAttribute('role', 'alert');
  await expectAccessible(page, 'notification-error');

  await page.goto('/folders/new');
  const form = page.getByRole('form', { name: 'Create folder' });
  await expect(form).toBeVisible();
  await expectAccessible(page, 'folder-new');
  await form.getByRole('checkbox', { name: 'Protect the upload link with a password' }).check();
  await form.getByLabel('Link password', { exact: true }).fill('Sonnenblume25-417');
  await form.getByLabel('Confirm link password', { exact: true }).fill('something else');
  await form.getByRole('checkbox', { name: 'Require e-mail verification' }).check();
  await form.getByLabel('Allowed e-mails').fill('anna@example.com, not an address');
  await form.getByRole('radio', { name: 'On a date' }).check();
  await form.locator('button[type=submit]').click();
  await expect(form.getByRole('textbox', { name: /^Title/ })).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'folder-new-every-option-with-errors');
  await form.getByRole('radio', { name: 'After a number of days' }).check();
  await form.getByRole('radio', { name: 'Never expires' }).check();
  await form.getByLabel('Confirm link password', { exact: true }).fill('Sonnenblume25-417');
  await form.getByLabel('Allowed e-mails').fill('anna@example.com');
  await form.getByRole('textbox', { name: /^Title/ }).fill('Second intake');
  await form.locator('button[type=submit]').click();
  const success = page.locator('.notistack-MuiContent-success');
  await expect(success).toBeVisible();
  await expect(success).toHaveAttribute('role', 'status');
  await expectAccessible(page, 'notification-success');

  await page.goto(`/folders/edit/${gatedFolder.id}`);
  const edit = page.getByRole('form', { name: 'Edit folder' });
  await expect(edit.getByRole('checkbox', { name: 'Folder is active' })).toBeChecked();
  await expect(edit.getByLabel('Allowed e-mails')).toHaveValue(/anna@example\.com/);
  await edit.getByRole('checkbox', { name: 'Change or remove the link password' }).check();
  await expect(edit.getByLabel('New link password', { exact: true })).toBeVisible();
  await expectAccessible(page, 'folder-edit-every-option');

  // Not in the spec's route table, but a screen of the app all the same.
  await page.goto('/activity');
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await expect(page.getByText('Folder created').first()).toBeVisible();
  await expectAccessible(page, 'activity');
});

test('the files screen: nested tree, selection, filter and every dialog, and two notifications at once', async ({ page }) => {
  const admin = await createAdmin('a11y-files');
  await signIn(page, admin);
  const publicKey = await giveAdminKeyPair(page, admin.password);
  const folder = await createFolder(page, 'Client intake');
  await uploadFiles(folder.link_token, publicKey, [
    { dir: '.', name: 'contract.pdf', content: Buffer.from('contract') },
    { dir: '.', name: 'contract copy.pdf', content: Buffer.from('contract') },
    { dir: 'scans', name: 'page-1.png', content: Buffer.from('page one') },
    { dir: 'scans/2024', name: 'page-2.png', content: Buffer.from('page two') },
  ]);
  await page.goto(`/folders/view/${folder.id}`);
  const toolbar = page.getByRole('toolbar', { name: 'File actions' });
  await expect(page.getByText('contract.pdf', { exact: true })).toBeVisible();

  // Two notifications at once, each its own (notistack gave both id="notistack-snackbar"): the
  // warning of Create Download Link... with nothing selected, the info of Export Encrypted.
  await toolbar.getByRole('button', { name: 'Create Download Link...' }).click();
  await toolbar.getByRole('button', { name: 'Export Encrypted' }).click();
  await expect(page.locator('.notistack-MuiContent-warning')).toBeVisible();
  await expect(page.locator('.notistack-MuiContent-warning')).toHaveAttribute('role', 'alert');
  await expect(page.locator('.notistack-MuiContent-info')).toHaveAttribute('role', 'status');
  await expectAccessible(page, 'notifications-warning-and-info');

  await page.getByRole('button', { name: 'Expand scans' }).click();
  await page.getByRole('button', { name: 'Expand scans/2024' }).click();
  await expect(page.getByText('page-2.png')).toBeVisible();
  await expectAccessible(page, 'files-tree');

  await page.getByRole('checkbox', { name: 'Select contract.pdf' }).check();
  await page.getByRole('checkbox', { name: 'Select folder scans/2024' }).check();
  await expect(toolbar.getByText('2 / 4 selected')).toBeVisible();
  await expectAccessible(page, 'files-selection');

  await toolbar.getByRole('button', { name: 'Delete Selected' }).click();
  const deleteFiles = page.getByRole('dialog', { name: 'Delete files' });
  await expect(deleteFiles).toContainText('Are you sure you want to delete 2 files?');
  await expectAccessible(page, 'files-delete-dialog');
  await deleteFiles.getByRole('button', { name: 'Cancel' }).click();
  await expect(deleteFiles).toBeHidden();

  // 'Login Password Required': entering, its inline error, the error state, then unlocked.
  await toolbar.getByRole('button', { name: 'Create Download Link...' }).click();
  const unlock = page.getByRole('dialog', { name: 'Login Password Required' });
  await expect(unlock.getByLabel('Login Password')).toBeFocused();
  await expectAccessible(page, 'unlock-entering');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock.getByLabel('Login Password')).toHaveAttribute('aria-invalid', 'true');
  await unlock.getByLabel('Login Password').fill('not-the-password');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock.getByRole('button', { name: 'Try Again' })).toBeVisible();
  await expectAccessible(page, 'unlock-error');
  await unlock.getByRole('button', { name: 'Try Again' }).click();
  await unlock.getByLabel('Login Password').fill(admin.password);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock.getByRole('button', { name: 'Continue' })).toBeVisible();
  await expectAccessible(page, 'unlock-key-loaded');
  await unlock.getByRole('button', { name: 'Continue' }).click();

  const create = page.getByRole('dialog', { name: /download link/i });
  await expect(create.getByRole('form', { name: 'Create download link' })).toBeVisible();
  await expectAccessible(page, 'create-link-dialog');
  await create.getByLabel('Confirm link password', { exact: true }).fill('no match');
  await create.getByRole('button', { name: 'Create Link' }).click();
  await expect(create.getByText('Passwords do not match.')).toBeVisible();
  await expectAccessible(page, 'create-link-dialog-errors');
  const password = await create.getByLabel('Link password', { exact: true }).inputValue();
  await create.getByLabel('Confirm link password', { exact: true }).fill(password);
  await create.getByRole('button', { name: 'Create Link' }).click();
  const ready = page.getByRole('dialog', { name: 'Download Link Ready' });
  await expect(ready.getByText('Remember to share the password separately!')).toBeVisible();
  await expectAccessible(page, 'link-ready-dialog');
  await ready.getByRole('button', { name: 'Close' }).click();
  await expect(ready).toBeHidden();

  const links = page.getByRole('region', { name: 'Active Download Links' });
  await links.getByRole('button', { name: 'Delete' }).click();
  const deleteLink = page.getByRole('dialog');
  await expect(deleteLink).toContainText('Are you sure you want to permanently delete this download link?');
  await expectAccessible(page, 'delete-link-dialog');
  await deleteLink.getByRole('button', { name: 'Cancel' }).click();
  await expect(deleteLink).toBeHidden();

  // Several files where the browser can write to a folder: 'Save to Folder...' or 'Download as ZIP'.
  await toolbar.getByRole('button', { name: 'Download Selected' }).click();
  const choice = page.getByRole('dialog');
  await expect(choice.getByRole('button').first()).toBeFocused();
  await expectAccessible(page, 'save-choice-dialog');
  await choice.getByRole('button', { name: 'Cancel' }).click();
  await expect(choice).toBeHidden();

  await toolbar.getByRole('button', { name: 'Never Downloaded' }).click();
  await expect(toolbar.getByRole('button', { name: 'Show All' })).toHaveAttribute('aria-pressed', 'true');
  await expectAccessible(page, 'files-filter');
});
