// The single-sign-on screens in German, in browsers whose language is German, against the real
// server and a real OpenID provider on loopback (the English journeys are sso.spec.ts and
// sso-org-recovery.spec.ts): the sign-in button, the first keys and the recovery key, an organisation
// admin turning organisation recovery on, a member's /sso with its notice and profile, a browser
// without the key asking for approval, the approval on the other device and the admin's restore
// dialog. On each: no English text of the catalogue left, axe finds nothing serious with lang="de",
// and nothing scrolls sideways at 1280 or at 390 px.
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { E2E_PORT } from './support/environment.mjs';
import { expectNoEnglish } from './support/germanScreens.ts';
import { expectNoSidewaysScrolling } from './support/layout.ts';
import { shot } from './support/screenshots.ts';
import { SsoRig } from './support/ssoRig.ts';
import { text } from './support/texts.ts';

const rig = new SsoRig({
  port: Number(process.env.SSO_GERMAN_E2E_PORT ?? E2E_PORT + 96),
  name: 'sso-german-e2e',
  users: {
    chef: { email: 'chef@staff.example', name: 'Chefin', groups: ['staff', 'admins'] },
    jonas: { email: 'jonas@staff.example', name: 'Jonas', groups: ['staff'] },
  },
  env: { OIDC_ADMIN_GROUP: 'admins' },
});
test.use({ baseURL: rig.base });
test.describe.configure({ mode: 'serial' });
test.beforeAll(() => rig.start());
test.afterAll(() => rig.stop());

const de = (id: string, values?: Record<string, string | number>) => text('de', id, values);

/** The German screen's checks at both widths; `userData`: texts the person typed or was given (not the app's). */
async function checkScreen(page: Page, screen: string, userData: readonly string[] = []): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expectNoEnglish(page, screen, userData);
  const wide = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: wide.height });
    await expectNoSidewaysScrolling(page, `${screen} at ${width} px`);
    await expectAccessible(page, `de-${screen}-${width}`);
  }
  await page.setViewportSize(wide);
  await shot(page, `de-${screen}`);
}

test('the single-sign-on screens in German: keys, organisation recovery, approval and restore', async ({ browser }) => {
  // Thirteen screens, each swept by axe at two widths, and three key pairs: about a minute alone, and
  // past four minutes beside two heavy specs on the slowest two-core machines (docs/operations.md).
  test.setTimeout(480_000);
  // The sign-in page offers the provider by its name.
  const admin = await rig.newPage(browser, 'de');
  await admin.goto('/login');
  await expect(admin.getByRole('link', { name: de('sso.signIn.button', { name: 'Example Staff' }) })).toBeVisible();
  await checkScreen(admin, 'sso-login', ['Example Staff']);

  // The organisation admin's first keys, and the recovery key shown once.
  await rig.signInBySso(admin, 'chef', { language: 'de' });
  await checkScreen(admin, 'sso-setup');
  await admin.getByRole('button', { name: de('sso.setup.button') }).click();
  const recoveryKey = admin.getByTestId('recovery-key');
  await expect(recoveryKey).toBeVisible();
  await checkScreen(admin, 'sso-recovery-key', [(await recoveryKey.textContent())!.trim()]);
  await admin.getByLabel(de('sso.setup.recoveryStored')).check();
  await admin.getByRole('button', { name: de('sso.setup.continue') }).click();
  await expect(admin).toHaveURL(`${rig.base}/dashboard`);

  // Organisation recovery: off, its confirmation, on.
  await admin.goto('/members');
  const section = admin.getByRole('region', { name: de('orgRecovery.admin.title') });
  await expect(section.getByRole('button', { name: de('orgRecovery.admin.turnOn') })).toBeVisible();
  await checkScreen(admin, 'members-recovery-off', ['chef', 'jonas']);
  await section.getByRole('button', { name: de('orgRecovery.admin.turnOn') }).click();
  const confirm = admin.getByRole('dialog', { name: de('orgRecovery.admin.confirmTitle') });
  await expect(confirm).toBeVisible();
  await checkScreen(admin, 'members-recovery-confirmation', ['chef']);
  await confirm.getByRole('button', { name: de('orgRecovery.admin.confirm'), exact: true }).click();
  await expect(admin.getByText(de('orgRecovery.admin.turnedOn'))).toBeVisible();
  await expect(section.getByText(de('orgRecovery.admin.holdsKey', { name: 'chef' }))).toBeVisible();
  await checkScreen(admin, 'members-recovery-on', ['chef', 'jonas']);

  // A member's first sign-in: /sso says the organisation can restore access; then the profile.
  const member = await rig.newPage(browser, 'de');
  await rig.signInBySso(member, 'jonas', { language: 'de' });
  await expect(member.getByTestId('org-recovery-notice')).toBeVisible();
  await checkScreen(member, 'sso-setup-recovery-notice');
  await rig.createKeys(member, 'de');
  await member.goto('/profile');
  await expect(member.getByTestId('org-recovery-stored')).toBeVisible();
  await checkScreen(member, 'sso-profile', ['jonas', 'Jonas', 'jonas@staff.example']);

  // Another browser of the member's holds no key: it asks for an approval.
  const other = await rig.newPage(browser, 'de');
  await rig.signInBySso(other, 'jonas', { language: 'de' });
  await expect(other.getByRole('button', { name: de('sso.locked.askApproval') })).toBeVisible();
  await checkScreen(other, 'sso-locked');
  await other.getByRole('button', { name: de('sso.locked.askApproval') }).click();
  const phrase = (await other.getByTestId('approval-phrase').textContent())!.trim();
  expect(phrase.split(' ')).toHaveLength(5);
  await checkScreen(other, 'sso-waiting-for-approval', [phrase]);

  // The request as the member's first browser shows it, and as the admin's restore dialog does.
  await member.goto('/profile');
  await expect(member.getByTestId('approval-request-phrase')).toHaveText(phrase, { timeout: 15_000 });
  await checkScreen(member, 'sso-profile-approval-request', ['jonas', 'Jonas', 'jonas@staff.example', phrase]);
  await admin.goto(`/sso?next=${encodeURIComponent('/members')}`);
  await expect(admin).toHaveURL(`${rig.base}/members`);
  const card = admin.getByRole('listitem', { name: 'jonas' });
  await expect(card.getByText(de('orgRecovery.account.keyHeld'))).toBeVisible();
  await card.getByRole('button', { name: de('orgRecovery.account.restoreLabel', { name: 'jonas' }) }).click({ timeout: 20_000 });
  const dialog = admin.getByRole('dialog', { name: de('orgRecovery.restore.title', { name: 'jonas' }) });
  await expect(dialog.getByTestId('restore-request-phrase')).toHaveText(phrase, { timeout: 15_000 });
  await checkScreen(admin, 'members-restore-dialog', ['jonas', phrase]);
});
