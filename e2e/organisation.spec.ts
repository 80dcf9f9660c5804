// Organisation accounts in the real browser against the real server: an organisation admin invites
// a person from the members page; the invitee opens the link from the mail (the e2e server writes
// mail to DATA_DIR/outbox), chooses a username and password (the browser derives the login secret),
// turns on two-factor sign-in and creates the key pair on the setup page (the profile's own
// sections), then signs in with password and code. The admin sees the account with the key's
// fingerprint (checked here against the stored public key), disables it: the invitee's open
// session is refused at once and the sign-in says the account is disabled; enabled, it signs in
// again. The screens pass axe and fit 390 px.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';
import { expectAccessible } from './support/axe.ts';
import { E2E_DATA_DIR } from './support/environment.mjs';
import { expectNoSidewaysScrolling } from './support/layout.ts';
import { expectedFingerprint } from './support/keyFingerprint.ts';
import { invitationLinkFromOutbox } from './support/outbox.ts';
import { Authenticator } from './support/totp.ts';
import { signInWithCode } from './support/twoFactorSeed.ts';

const SHOTS_DIR = process.env.ORG_SHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}

test('an organisation admin invites a person who registers, sets up 2FA and keys, signs in, and is disabled and enabled again', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const admin = await createAdmin('org-admin', undefined, 'admin');
  await signIn(page, admin);
  await page.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Members · Sealdrop');
  await expect(page.getByRole('listitem', { name: admin.username })).toBeVisible();
  await expectAccessible(page, 'members');
  await shot(page, 'members');

  // Invite.
  const email = `invitee-${randomBytes(4).toString('hex')}@example.com`;
  const invite = page.getByRole('region', { name: 'Invite a person' });
  await invite.getByLabel('E-mail address').fill(email);
  await invite.getByLabel('Name (optional)').fill('Ivy Invitee');
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(invite.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  const invitations = page.getByRole('region', { name: 'Invitations' });
  await expect(invitations.getByRole('listitem', { name: email })).toContainText('Pending');
  const link = await invitationLinkFromOutbox(E2E_DATA_DIR, email);

  // The invitee, in a browser of their own.
  const inviteeContext = await browser.newContext();
  const invitee = await inviteeContext.newPage();
  await invitee.goto(link);
  await expect(invitee.getByText(`This invitation is for ${email}.`)).toBeVisible();
  await expect(invitee).toHaveTitle('Join Sealdrop · Sealdrop');
  await expectAccessible(invitee, 'invitation');
  await shot(invitee, 'invitation');
  const account: AdminAccount = { username: `ivy-${randomBytes(3).toString('hex')}`, password: `pw-${randomBytes(9).toString('base64url')}` };
  const passwordRequests: string[] = [];
  invitee.on('request', (request) => {
    if (request.url().includes('/api/') && (request.postData() ?? '').includes(account.password)) passwordRequests.push(request.url());
  });
  await invitee.getByLabel('Username', { exact: true }).fill(account.username);
  await invitee.getByLabel('Password', { exact: true }).fill(account.password);
  await invitee.getByLabel('Confirm password', { exact: true }).fill(`${account.password}x`);
  await expect(invitee.getByRole('button', { name: 'Create Account' })).toBeDisabled();
  await invitee.getByLabel('Confirm password', { exact: true }).fill(account.password);
  await invitee.getByRole('button', { name: 'Create Account' }).click();

  // The setup page: the profile's 2FA section, then its key pair section.
  await expect(invitee).toHaveURL(/\/welcome$/, { timeout: 30_000 });
  await expect(invitee.getByRole('heading', { name: 'Finish setting up your account' })).toBeVisible();
  await expectAccessible(invitee, 'setup');
  await shot(invitee, 'setup');
  const twoFactor = invitee.getByRole('region', { name: 'Two-Factor Authentication' });
  await twoFactor.getByRole('button', { name: 'Enable 2FA' }).click();
  const secret = (await twoFactor.getByLabel('Two-factor secret').textContent())?.trim() ?? '';
  const authenticator = new Authenticator(secret);
  await twoFactor.getByLabel('Authentication Code', { exact: true }).fill(await authenticator.nextCode());
  await twoFactor.getByRole('button', { name: 'Verify & Enable' }).click();
  await expect(twoFactor.getByRole('button', { name: 'Disable 2FA' })).toBeVisible();

  const keys = invitee.getByRole('region', { name: 'End-to-End Encryption Key' });
  await keys.getByLabel('Login Password', { exact: true }).fill(account.password);
  await keys.getByRole('button', { name: 'Generate New Key Pair' }).click();
  await invitee.getByRole('dialog', { name: 'Generate a new key pair?' }).getByRole('button', { name: 'Generate New Keys' }).click();
  const modal = invitee.getByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' });
  await expect(modal).toBeVisible({ timeout: 30_000 });
  await modal.getByRole('button', { name: 'Upload Public Key' }).click();
  await expect(modal.getByRole('button', { name: 'Uploaded ✓' })).toBeDisabled();
  await modal.getByRole('button', { name: 'Save Key Data' }).click();
  await expect(modal.getByRole('button', { name: 'Saved ✓' })).toBeDisabled();
  const download = invitee.waitForEvent('download');
  await modal.getByRole('button', { name: 'Download Backup (.json)' }).click();
  await download;
  await modal.getByRole('button', { name: 'Done (Close)' }).click();
  await expect(modal).toBeHidden();
  await invitee.getByRole('link', { name: 'Continue to Dashboard' }).click();
  await expect(invitee).toHaveURL(/\/dashboard$/);
  expect(passwordRequests).toEqual([]);

  // Signs in again: password, then the code.
  await invitee.getByRole('button', { name: 'Logout' }).click();
  await expect(invitee).toHaveURL(/\/login$/);
  await signInWithCode(invitee, account, authenticator);
  await expect(invitee.getByRole('link', { name: 'Members' })).toHaveCount(0);

  // The admin sees the account, its role and the fingerprint of the key it stored.
  const stored = (await (await invitee.request.get('/api/auth/public-key')).json()) as { public_key_spki: string };
  await page.reload();
  const card = page.getByRole('listitem', { name: account.username });
  await expect(card).toContainText('Ivy Invitee');
  await expect(card).toContainText('2FA on');
  await expect(card.getByTestId('key-fingerprint')).toHaveText(expectedFingerprint(stored.public_key_spki));
  await expect(page.getByRole('region', { name: 'Invitations' }).getByRole('listitem', { name: email })).toContainText('Accepted');

  // Disable: the invitee's session ends at once, the sign-in is refused with its own message.
  await card.getByRole('button', { name: `Disable ${account.username}` }).click();
  const confirm = page.getByRole('dialog', { name: `Disable ${account.username}?` });
  await expectAccessible(page, 'members-disable-dialog');
  await confirm.getByRole('button', { name: 'Disable' }).click();
  await expect(card).toContainText('Disabled');
  expect((await invitee.request.get('/api/auth/users/me')).status()).toBe(401);
  await invitee.reload();
  await expect(invitee).toHaveURL(/\/login$/);
  await invitee.getByLabel('Username', { exact: true }).fill(account.username);
  await invitee.getByLabel('Password', { exact: true }).fill(account.password);
  await invitee.getByRole('button', { name: 'Sign In' }).click();
  await expect(invitee.getByRole('main').getByRole('alert')).toContainText('This account is disabled.');

  // Enabled again, it signs in.
  await card.getByRole('button', { name: `Enable ${account.username}` }).click();
  await expect(card).toContainText('Active');
  await signInWithCode(invitee, account, authenticator);
  await inviteeContext.close();
});

test('the members page, the invitation page and a used invitation fit a 390 px phone and pass axe', async ({ browser }) => {
  const admin = await createAdmin('org-phone', undefined, 'admin');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, admin);
  // The dashboard of an organisation admin has one more button: it still fits.
  await expect(page.getByRole('link', { name: 'Members' })).toBeVisible();
  await expectNoSidewaysScrolling(page, 'dashboard of an organisation admin at 390 px');
  await shot(page, 'dashboard-admin');
  await page.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  const email = `phone-${randomBytes(4).toString('hex')}@example.com`;
  const invite = page.getByRole('region', { name: 'Invite a person' });
  await invite.getByLabel('E-mail address').fill(email);
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByRole('region', { name: 'Invitations' }).getByRole('listitem', { name: email })).toBeVisible();
  await expectAccessible(page, 'members-phone');
  await expectNoSidewaysScrolling(page, 'members at 390 px');
  await shot(page, 'members');

  const link = await invitationLinkFromOutbox(E2E_DATA_DIR, email);
  const visitor = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole('button', { name: 'Create Account' })).toBeVisible();
  await expectAccessible(visitor, 'invitation-phone');
  await expectNoSidewaysScrolling(visitor, 'invitation at 390 px');
  await shot(visitor, 'invitation');

  // Accepted on the phone: the setup page fits too.
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  await visitor.getByLabel('Username', { exact: true }).fill(`phone-${randomBytes(3).toString('hex')}`);
  await visitor.getByLabel('Password', { exact: true }).fill(password);
  await visitor.getByLabel('Confirm password', { exact: true }).fill(password);
  await visitor.getByRole('button', { name: 'Create Account' }).click();
  await expect(visitor.getByRole('heading', { name: 'Finish setting up your account' })).toBeVisible({ timeout: 30_000 });
  await expect(visitor.getByRole('region', { name: 'End-to-End Encryption Key' }).getByText('Not stored')).toBeVisible();
  await expectAccessible(visitor, 'setup-phone');
  await expectNoSidewaysScrolling(visitor, 'setup at 390 px');
  await shot(visitor, 'setup');

  // A second invitation, revoked from the members page: its link now says so, with no Retry.
  const revokedEmail = `revoked-${randomBytes(4).toString('hex')}@example.com`;
  await invite.getByLabel('E-mail address').fill(revokedEmail);
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  const revokedLink = await invitationLinkFromOutbox(E2E_DATA_DIR, revokedEmail);
  await page.getByRole('button', { name: `Revoke ${revokedEmail}` }).click();
  await expect(page.getByRole('region', { name: 'Invitations' }).getByRole('listitem', { name: revokedEmail })).toContainText('Revoked');
  await visitor.goto(revokedLink);
  await expect(visitor.getByRole('alert')).toContainText('This invitation was withdrawn');
  await expect(visitor.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expectAccessible(visitor, 'invitation-revoked-phone');
  await shot(visitor, 'invitation-revoked');
  // The accepted one cannot be used twice.
  await visitor.goto(link);
  await expect(visitor.getByRole('alert')).toContainText('This invitation has already been used');
  await context.close();
});
