// Single sign-on in a real browser against the real server and a real OpenID provider on loopback
// (tests/support/oidc-provider.ts: oidc-provider): one person signs in by SSO in two browsers,
// makes their keys in the first, approves the second from the first by comparing the five words,
// and both decrypt the same file byte-identical; a device removed in the profile cannot unlock
// any more; sign-out ends the provider's session too.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { shot } from './support/screenshots.ts';
import { sha256 } from './support/files-seed.ts';
import { SsoRig } from './support/ssoRig.ts';
import { E2E_PORT } from './support/environment.mjs';

const rig = new SsoRig({
  port: Number(process.env.SSO_E2E_PORT ?? E2E_PORT + 90),
  name: 'sso-e2e',
  users: { dana: { email: 'dana@staff.example', name: 'Dana', groups: ['staff'] } },
});
const BASE = rig.base;
test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });
test.beforeAll(() => rig.start());
test.afterAll(() => rig.stop());

test('one person, two browsers: keys made in the first, the second approved by the five words, the same file decrypted in both', async ({ browser }) => {
  // Two browsers, key pairs and approvals: 2.6 minutes beside two heavy specs on the slowest machines.
  test.setTimeout(300_000);
  const first = await rig.newPage(browser);
  await rig.signInBySso(first, 'dana');
  await expectAccessible(first, 'sso setup');
  await shot(first, 'setup');
  await first.getByRole('button', { name: 'Create my keys' }).click();
  await expect(first.getByTestId('recovery-key')).toBeVisible();
  await expectAccessible(first, 'sso recovery key');
  await shot(first, 'recovery-key');
  const recoveryKey = (await first.getByTestId('recovery-key').textContent())!.trim();
  expect(recoveryKey).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){7}$/);
  await expect(first.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await first.getByLabel('I have stored my recovery key').check();
  await first.getByRole('button', { name: 'Continue' }).click();
  await expect(first).toHaveURL(`${BASE}/dashboard`);

  // A folder of dana's and a file an uploader encrypted in the browser for dana's key.
  const folder = await rig.createFolder(first, 'SSO files');
  const content = randomBytes(300_000);
  await rig.uploadThroughLink(browser, folder.link_token, 'report.bin', content);
  expect(sha256(await rig.downloadedBytes(first, folder.id, 'report.bin'))).toBe(sha256(content));

  // The second browser: signed in, but it holds no key; it asks for an approval.
  const second = await rig.newPage(browser);
  await rig.signInBySso(second, 'dana');
  await expect(second.getByText('This device does not hold your key yet.', { exact: false })).toBeVisible();
  await second.getByRole('button', { name: 'Approve from another device' }).click();
  const phrase = (await second.getByTestId('approval-phrase').textContent())!.trim();
  await expectAccessible(second, 'sso waiting for approval');
  await shot(second, 'waiting-for-approval');
  expect(phrase.split(' ')).toHaveLength(5);

  // The first browser shows the same words for the request, and approves it.
  await first.goto('/profile');
  const request = first.getByTestId('approval-request-phrase');
  await expect(request).toHaveText(phrase, { timeout: 15_000 });
  await expectAccessible(first, 'profile with an approval request');
  await shot(first, 'profile-approval');
  await first.getByRole('button', { name: 'The words match: approve' }).click();
  await expect(first.getByText('Approved. The other device now holds your key.')).toBeVisible();

  await expect(second).toHaveURL(`${BASE}/dashboard`, { timeout: 20_000 });
  expect(sha256(await rig.downloadedBytes(second, folder.id, 'report.bin'))).toBe(sha256(content));

  // The second browser is trusted now: after a reload it unlocks by itself.
  await second.goto('/sso');
  await expect(second).toHaveURL(`${BASE}/dashboard`);

  // Removed in the first browser's profile, it cannot unlock any more.
  await first.goto('/profile');
  const devices = first.getByRole('list', { name: 'Devices' });
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  const other = devices.getByRole('listitem').filter({ hasNotText: '(this device)' });
  await other.getByRole('button', { name: /^Remove / }).click();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await second.goto('/sso');
  await expect(second.getByText('This device does not hold your key yet.', { exact: false })).toBeVisible();

  // The recovery key unlocks it again (and trusts it anew).
  await second.getByLabel('Recovery key').fill(recoveryKey.toLowerCase().replaceAll('-', ' '));
  await second.getByRole('button', { name: 'Unlock with recovery key' }).click();
  await expect(second).toHaveURL(`${BASE}/dashboard`, { timeout: 20_000 });
  expect(sha256(await rig.downloadedBytes(second, folder.id, 'report.bin'))).toBe(sha256(content));

  // Sign-out ends the provider's session as well: the next sign-in asks for the name again.
  const ended = rig.provider.endSessionSeen();
  await first.goto('/dashboard');
  await first.getByRole('button', { name: 'Logout' }).click();
  await expect(first).toHaveURL(new RegExp(`^${rig.provider.issuer}/session/end`));
  expect(rig.provider.endSessionSeen()).toBeGreaterThan(ended);
});

test('a refused sign-in comes back to the sign-in page with its reason', async ({ page }) => {
  rig.provider.setUser('outsider', { email: 'outsider@elsewhere.example', groups: [] });
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Example Staff' }).click();
  await page.getByLabel('Username').fill('outsider');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${BASE}/login?sso_error=SSO_NOT_ALLOWED`);
  await expect(page.getByText('Your organisation account may not use this server. Ask an administrator for an invitation.')).toBeVisible();
  await shot(page, 'login-refused');
});
