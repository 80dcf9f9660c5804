// A passkey with PRF unlocks the keys of an account made by single sign-on (issue 44), in Chromium
// against the real server and a real OpenID provider on loopback (tests/support/oidc-provider.ts),
// with the DevTools protocol's virtual authenticator. At http://localhost:<port>: WebAuthn takes
// no IP address as relying party.
//
// One person signs in by single sign-on, makes their keys, adds a passkey in the profile without
// any password (the sign-in just happened); the same tab then becomes a new browser (every cookie
// and all of the origin's storage cleared: no trusted-device copy left, its virtual authenticator
// kept), signs in by single sign-on, and /sso offers the passkey first: it unlocks, the browser
// is trusted, and a file uploaded to the account decrypts byte-identical. "Sign in again with
// <provider>" in the passkey confirmation goes to the provider and back to the profile.
//
// A second browser context gets the same credential over CDP (WebAuthn.getCredentials /
// addCredential). Chromium's virtual authenticator exports no PRF secret with a credential (a
// copied credential answers no PRF output: measured), so that browser shows the other case the
// page must handle: a passkey that cannot unlock says so, and the approval and recovery key stay.
// Its passkey sign-in on /login is refused with the provider's reason. axe on each new state.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { shot } from './support/screenshots.ts';
import { sha256 } from './support/files-seed.ts';
import { SsoRig } from './support/ssoRig.ts';
import { virtualAuthenticator } from './support/virtualAuthenticator.ts';
import { E2E_PORT } from './support/environment.mjs';

const rig = new SsoRig({
  port: Number(process.env.SSO_PASSKEY_E2E_PORT ?? E2E_PORT + 110),
  host: 'localhost',
  name: 'sso-passkey-e2e',
  users: { erin: { email: 'erin@staff.example', name: 'Erin', groups: ['staff'] } },
});
const BASE = rig.base;
test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });
test.beforeAll(() => rig.start());
test.afterAll(() => rig.stop());

test('a passkey added without a password unlocks the keys on a new browser after single sign-on; its sign-in is refused', async ({ browser }) => {
  // 2.5 minutes beside two heavy specs on the slowest machines.
  test.setTimeout(300_000);
  const context = await rig.newContext(browser);
  const page = await context.newPage();
  await page.goto('/login');
  const authenticator = await virtualAuthenticator(page, { hasPrf: true });

  // Keys made after the first single sign-on.
  await rig.signInBySso(page, 'erin');
  await rig.createKeys(page);

  // The profile offers passkeys; the sign-in just happened, so Continue needs no password.
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('After you sign in with Example Staff, a passkey', { exact: false })).toBeVisible();
  // The page was loaded afresh: the key is locked, so Add goes through /sso (this browser's copy) and back.
  await section.getByRole('button', { name: 'Add a Passkey' }).click();
  await expect(page).toHaveURL(`${BASE}/profile`, { timeout: 20_000 });
  await section.getByRole('button', { name: 'Add a Passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a Passkey' });
  await expect(dialog.getByLabel('Login password')).toHaveCount(0);
  await expect(dialog.getByRole('link', { name: 'Sign in again with Example Staff' })).toHaveAttribute('href', '/api/auth/sso/start?next=%2Fprofile');
  await expectAccessible(page, 'sso passkey confirmation');
  await shot(page, 'sso-passkey-confirmation');
  await dialog.getByLabel('Passkey name').fill('Laptop');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(section.getByRole('listitem').filter({ hasText: 'Laptop' }).getByText('Unlocks keys')).toBeVisible();

  // A folder of erin's and a file an uploader encrypted in the browser for erin's key.
  const folder = await rig.createFolder(page, 'Passkey files');
  const content = randomBytes(200_000);
  await rig.uploadThroughLink(browser, folder.link_token, 'minutes.bin', content);

  // The same tab as a new browser: no cookie, no device copy in IndexedDB; the authenticator stays.
  await context.clearCookies();
  await authenticator.cdp.send('Storage.clearDataForOrigin', { origin: BASE, storageTypes: 'all' });
  await rig.signInBySso(page, 'erin');
  await expect(page.getByText('Unlock it with your passkey', { exact: false })).toBeVisible();
  const unlock = page.getByRole('button', { name: 'Unlock with a passkey' });
  await expect(unlock).toBeVisible();
  await expectAccessible(page, 'sso locked with a passkey');
  await shot(page, 'sso-locked-with-a-passkey');
  // Offered above the approval and the recovery key.
  const unlockBox = (await unlock.boundingBox())!;
  expect(unlockBox.y).toBeLessThan((await page.getByRole('button', { name: 'Approve from another device' }).boundingBox())!.y);
  expect(unlockBox.y).toBeLessThan((await page.getByLabel('Recovery key').boundingBox())!.y);
  await unlock.click();
  await expect(page).toHaveURL(`${BASE}/dashboard`, { timeout: 20_000 });
  // Trusted now: the next visit unlocks with this browser's own copy, and the file opens.
  await page.goto('/profile');
  await expect(page.getByRole('list', { name: 'Devices' }).getByRole('listitem')).toHaveCount(2);
  expect(sha256(await rig.downloadedBytes(page, folder.id, 'minutes.bin'))).toBe(sha256(content));

  // Signing in again from the confirmation: the provider asks for the sign-in (prompt=login), and
  // the browser comes back through /sso (this browser's copy now) to the profile.
  await page.goto('/profile');
  await page.getByRole('region', { name: 'Passkeys' }).getByRole('button', { name: 'Add a Passkey' }).click();
  await expect(page).toHaveURL(`${BASE}/profile`, { timeout: 20_000 });
  await page.getByRole('region', { name: 'Passkeys' }).getByRole('button', { name: 'Add a Passkey' }).click();
  await page.getByRole('dialog', { name: 'Add a Passkey' }).getByRole('link', { name: 'Sign in again with Example Staff' }).click();
  await expect(page).toHaveURL(new RegExp(`^${rig.provider.issuer}/interaction/`));
  await page.getByLabel('Username').fill('erin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${BASE}/profile`, { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Passkeys' }).getByRole('listitem').filter({ hasText: 'Laptop' })).toBeVisible();

  // Another browser context with the same credential copied over CDP (which carries no PRF secret).
  const { credentials } = await authenticator.cdp.send('WebAuthn.getCredentials', { authenticatorId: authenticator.id });
  expect(credentials).toHaveLength(1);
  const otherContext = await rig.newContext(browser);
  const other = await otherContext.newPage();
  await other.goto('/login');
  const copied = await virtualAuthenticator(other, { hasPrf: true });
  await copied.cdp.send('WebAuthn.addCredential', { authenticatorId: copied.id, credential: credentials[0]! });

  // Its passkey does not sign in: the account signs in through the provider.
  await other.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(other.getByText('This account signs in through your organisation. Sign in there; your passkey then unlocks your keys.').first()).toBeVisible();
  await expect(other).toHaveURL(`${BASE}/login`);
  await expectAccessible(other, 'login with a refused passkey');
  await shot(other, 'login-with-a-refused-passkey');

  // After single sign-on, the passkey is offered; without PRF it says so, and the other ways remain.
  await rig.signInBySso(other, 'erin');
  await other.getByRole('button', { name: 'Unlock with a passkey' }).click();
  await expect(other.getByText('This passkey cannot unlock your key: its authenticator has no PRF support.', { exact: false })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Approve from another device' })).toBeEnabled();
  await expect(other.getByLabel('Recovery key')).toBeEditable();
  await expect(other).toHaveURL(`${BASE}/sso`);
  await expectAccessible(other, 'sso passkey without prf');
  await shot(other, 'sso-passkey-without-prf');

  await otherContext.close();
  await context.close();
});
