// The organisation recovery policy in real browsers against the real server and a real OpenID
// provider on loopback (tests/support/oidc-provider.ts): an organisation admin signed in by single
// sign-on turns the policy on; a member signs in, makes their keys (their browser stores the copy
// for the organisation) and receives a file; in a fresh browser, with no trusted device and no
// recovery key, the member asks for approval; the admin compares the five words and restores the
// member's access; the member's file decrypts byte-identical there. axe checks each new screen.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { shot } from './support/screenshots.ts';
import { sha256 } from './support/files-seed.ts';
import { SsoRig } from './support/ssoRig.ts';
import { E2E_PORT } from './support/environment.mjs';

// Beside sso.spec.ts's ports (E2E_PORT + 90, + 91), so both may run at once.
const rig = new SsoRig({
  port: Number(process.env.ORG_RECOVERY_E2E_PORT ?? E2E_PORT + 93),
  name: 'sso-org-recovery-e2e',
  users: {
    boss: { email: 'boss@staff.example', name: 'Boss', groups: ['staff', 'admins'] },
    erin: { email: 'erin@staff.example', name: 'Erin', groups: ['staff'] },
  },
  env: { OIDC_ADMIN_GROUP: 'admins' },
});
const BASE = rig.base;
test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });
test.beforeAll(() => rig.start());
test.afterAll(() => rig.stop());

test("an admin restores the access of a member who lost every device and their recovery key; the member's file decrypts", async ({ browser }) => {
  // The organisation admin (by the provider's admin group) signs in, makes keys, opens Members.
  const admin = await rig.newPage(browser);
  await rig.signInBySso(admin, 'boss');
  await rig.createKeys(admin);
  await admin.goto('/members');
  const section = admin.getByRole('region', { name: 'Organisation recovery' });
  await expect(section.getByText("No admin can read anyone's files.", { exact: false })).toBeVisible();
  await expectAccessible(admin, 'members page, organisation recovery off');
  await shot(admin, 'org-recovery-members-page-organisation-recovery-off');

  // Turning it on says what it costs and asks to confirm.
  await section.getByRole('button', { name: 'Turn On Organisation Recovery...' }).click();
  const confirm = admin.getByRole('dialog', { name: 'Turn on organisation recovery?' });
  await expect(confirm.getByText("can read those members' files", { exact: false })).toBeVisible();
  await expectAccessible(admin, 'organisation recovery confirmation');
  await shot(admin, 'org-recovery-organisation-recovery-confirmation');
  await confirm.getByRole('button', { name: 'Turn On' }).click();
  await expect(admin.getByText('Organisation recovery is on.')).toBeVisible();
  await expect(section.getByText('boss: holds the key')).toBeVisible();
  await expect(admin.getByText("Organisation recovery is on: admins can restore members' access, and so read their files.")).toBeVisible();
  const orgFingerprint = section.getByTestId('org-key-fingerprint');
  await expect(orgFingerprint).toHaveText(/^([0-9A-F]{4} ){9}[0-9A-F]{4}$/);
  const fingerprint = (await orgFingerprint.textContent())!;
  await expectAccessible(admin, 'members page, organisation recovery on');
  await shot(admin, 'org-recovery-members-page-organisation-recovery-on');

  // The member signs in: /sso says the organisation can restore access and read files, with the
  // same fingerprint; making the keys stores the copy for the organisation.
  const member = await rig.newPage(browser);
  await rig.signInBySso(member, 'erin');
  const notice = member.getByTestId('org-recovery-notice');
  await expect(notice).toContainText('can therefore read your files');
  await expect(notice.getByTestId('org-key-fingerprint')).toHaveText(fingerprint);
  await expectAccessible(member, 'sso setup with the organisation recovery notice');
  await shot(member, 'org-recovery-sso-setup-with-the-organisation-recovery-notice');
  await rig.createKeys(member);
  const state = (await (await member.request.get('/api/auth/org-recovery-copy')).json()) as { stored: boolean };
  expect(state.stored).toBe(true);
  await member.goto('/profile');
  await expect(member.getByTestId('org-recovery-stored')).toHaveText('A copy of your key is held for your organisation.');
  await expectAccessible(member, 'profile devices with the organisation recovery notice');
  await shot(member, 'org-recovery-profile-devices-with-the-organisation-recovery-notice');

  // A file for the member, encrypted in an uploader's browser for the member's key.
  const folder = await rig.createFolder(member, 'Erin files');
  const content = randomBytes(200_000);
  await rig.uploadThroughLink(browser, folder.link_token, 'contract.bin', content);

  // Every device and the recovery key lost: a fresh browser asks for approval.
  await member.context().close();
  const fresh = await rig.newPage(browser);
  await rig.signInBySso(fresh, 'erin');
  await expect(fresh.getByText('This device does not hold your key yet.', { exact: false })).toBeVisible();
  await fresh.getByRole('button', { name: 'Approve from another device' }).click();
  const phrase = (await fresh.getByTestId('approval-phrase').textContent())!.trim();
  expect(phrase.split(' ')).toHaveLength(5);

  // The admin (key unlocked by this browser's copy on the way) sees the request on erin's card.
  await admin.goto(`/sso?next=${encodeURIComponent('/members')}`);
  await expect(admin).toHaveURL(`${BASE}/members`);
  const card = admin.getByRole('listitem', { name: 'erin' });
  await expect(card.getByText('Key held for recovery')).toBeVisible();
  await card.getByRole('button', { name: 'Restore access of erin' }).click({ timeout: 20_000 });
  const dialog = admin.getByRole('dialog', { name: 'Restore access of erin' });
  await expect(dialog.getByTestId('restore-request-phrase')).toHaveText(phrase, { timeout: 15_000 });
  await expectAccessible(admin, 'restore access dialog');
  await shot(admin, 'org-recovery-restore-access-dialog');
  await dialog.getByRole('button', { name: 'The Words Match: Restore' }).click();
  await expect(admin.getByText("erin's new device now holds their key.")).toBeVisible();

  // The member's waiting page receives it and unlocks; the file decrypts byte-identical there.
  await expect(fresh).toHaveURL(`${BASE}/dashboard`, { timeout: 20_000 });
  expect(sha256(await rig.downloadedBytes(fresh, folder.id, 'contract.bin'))).toBe(sha256(content));

  // Recorded in the member's activity log.
  const log = (await (await fresh.request.get('/api/activity?kind=org_recovery.restored')).json()) as { entries: Array<{ details: Record<string, unknown> }> };
  expect(log.entries).toHaveLength(1);
  expect(log.entries[0]!.details.by_username).toBe('boss');

  // Turning it off deletes every copy; the member is told nothing more.
  await admin.getByRole('dialog', { name: 'Restore access of erin' }).getByRole('button', { name: 'Close' }).click();
  await section.getByRole('button', { name: 'Turn Off...' }).click();
  await admin.getByRole('dialog', { name: 'Turn off organisation recovery?' }).getByRole('button', { name: 'Turn Off' }).click();
  await expect(admin.getByText('Organisation recovery is off; every copy was deleted.')).toBeVisible();
  expect(await (await fresh.request.get('/api/auth/org-recovery-copy')).json()).toEqual({ key: null, stored: false });
});
