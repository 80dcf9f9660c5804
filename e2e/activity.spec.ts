// The activity log in the real browser against the real server: an admin's actions appear on the
// Activity screen and, per folder, on the files screen; filters narrow the list; the CSV export
// downloads; the chain check says the log is intact.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createAdmin, signIn } from './support/admin.ts';

const SHOTS_DIR = process.env.ACTIVITY_SHOTS_DIR ?? '/tmp/activity-shots';

test('an admin sees, filters and exports the activity of the account and of a folder', async ({ page }) => {
  const admin = await createAdmin('activity');
  await signIn(page, admin);
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  const created = await page.request.post('/api/folders/', { data: { title: 'Client intake', perform_mime_check: false }, headers: { 'x-csrftoken': csrf } });
  expect(created.status()).toBe(201);
  const folder = (await created.json()) as { id: number };
  const renamed = await page.request.put(`/api/folders/${folder.id}`, { data: { title: 'Client intake 2030' }, headers: { 'x-csrftoken': csrf } });
  expect(renamed.status()).toBe(200);

  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Activity' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('listitem').nth(0)).toContainText('Folder changed');
  await expect(list.getByRole('listitem').nth(0)).toContainText('"Client intake 2030" · changed: title');
  await expect(list.getByRole('listitem').nth(2)).toContainText('Signed in');
  await expect(page.getByText('Chain verified: 3 entries intact')).toBeVisible();

  await page.getByLabel('Kind').click();
  await page.getByRole('option', { name: 'Folder created' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('Folder created');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/^sealdrop-activity-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync(await saved.path(), 'utf8').trim().split('\r\n');
  expect(csv[0]).toBe('seq,at,kind,folder_id,details,ip_hash,prev_hash,hash');
  expect(csv).toHaveLength(3);
  expect(csv[1]).toContain('folder.created');
  // After the entries, the signed checkpoint of the account's newest entry (whatever the filter).
  expect(csv[2]).toMatch(/^# checkpoint ac1:\d+:\d+:[0-9a-f]{64}:[0-9a-f]{64}$/);
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SHOTS_DIR}/activity.png`, fullPage: true });

  await page.goto(`/folders/view/${folder.id}`);
  const section = page.getByRole('region', { name: 'Folder activity' });
  await expect(section.getByRole('listitem')).toHaveCount(2);
  await section.getByRole('link', { name: 'View all activity' }).click();
  await expect(page).toHaveURL(new RegExp(`/activity\\?folder_id=${folder.id}$`));
  await expect(page.getByRole('list', { name: 'Activity' }).getByRole('listitem')).toHaveCount(2);
});
