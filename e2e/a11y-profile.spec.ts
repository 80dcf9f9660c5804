// Accessibility of the profile (issue 29, docs/accessibility.md): axe-core with the WCAG 2.0–2.2
// A/AA rules (e2e/support/axe.ts) over 'My Profile & Settings' in every key state (none, a public
// key without a stored private key, stored) and with every modal (generate and its confirmation,
// the three-step new key pair modal, the restore's username mismatch, two-factor setup, the
// disable prompt and its confirmation). Fails on any critical or serious violation.
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generateRsaKeyPair } from '../server/crypto/keys.ts';
import { createAdmin, signIn } from './support/admin.ts';
import { expectAccessible } from './support/axe.ts';
import { Authenticator } from './support/totp.ts';

// The axe sweeps look at the app with its default motion, as most people see it (the rest of the
// suite asks for reduced motion: e2e/support/environment.mjs).
test.use({ reducedMotion: 'no-preference' });

async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  return { 'x-csrftoken': csrf };
}

test('the profile in every key state, with every modal', async ({ page }) => {
  const admin = await createAdmin('a11y-profile');
  await signIn(page, admin);
  await page.goto('/profile');
  const keys = page.getByRole('region', { name: 'End-to-End Encryption Key' });
  await expect(keys.getByText('Not stored', { exact: true })).toBeVisible();
  await expectAccessible(page, 'profile-no-key');

  // A public key without a stored private key: the warning.
  const publicKey = (await giveAdminKeyPairPublicOnly(page)).publicKey;
  expect(publicKey).not.toBe('');
  await page.reload();
  await expect(keys.getByText('Public key without a stored private key')).toBeVisible();
  await expectAccessible(page, 'profile-orphaned-public-key');

  // Generate: the password error, the confirmation, the three-step modal.
  const generate = keys.getByRole('form', { name: 'Generate new key pair' });
  await generate.getByRole('button', { name: 'Generate New Key Pair' }).click();
  await expect(generate.getByLabel('Login Password')).toHaveAccessibleDescription(/Password required to generate and encrypt keys\./);
  await expectAccessible(page, 'profile-generate-error');
  await generate.getByLabel('Login Password').fill(admin.password);
  await generate.getByRole('button', { name: 'Generate New Key Pair' }).click();
  const confirmGenerate = page.getByRole('dialog', { name: 'Generate a new key pair?' });
  await expect(confirmGenerate).toBeVisible();
  await expectAccessible(page, 'profile-generate-confirm');
  await confirmGenerate.getByRole('button', { name: 'Generate New Keys' }).click();
  const modal = page.getByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' });
  await expect(modal.getByRole('button', { name: 'Upload Public Key' })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, 'profile-new-key-pair-modal');
  await modal.getByRole('button', { name: 'Upload Public Key' }).click();
  await modal.getByRole('button', { name: 'Save Key Data' }).click();
  const backupDownload = page.waitForEvent('download');
  await modal.getByRole('button', { name: 'Download Backup (.json)' }).click();
  const backupPath = join(tmpdir(), `a11y-backup-${Date.now()}.json`);
  await (await backupDownload).saveAs(backupPath);
  await expect(modal.getByRole('button', { name: 'Done (Close)' })).toBeEnabled();
  await expectAccessible(page, 'profile-new-key-pair-modal-done');
  await modal.getByRole('button', { name: 'Done (Close)' }).click();
  const stored = keys.getByText('Stored', { exact: true });
  await expect(stored).toBeVisible();
  // The chip turns from grey to green at once: a fade passes through colours the white label fails on.
  await expect(stored.locator('..')).toHaveCSS('transition-duration', '0s');
  await expectAccessible(page, 'profile-stored');

  // Restore a backup made for another username: the mismatch question.
  const backup = JSON.parse(readFileSync(backupPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(backupPath, JSON.stringify({ ...backup, username: 'someone-else' }));
  const restore = keys.getByRole('form', { name: 'Restore key from backup' });
  await restore.getByLabel('Backup file').setInputFiles(backupPath);
  await restore.getByLabel('Current Login Password').fill(admin.password);
  await restore.getByRole('button', { name: 'Restore Key' }).click();
  const mismatch = page.getByRole('dialog');
  await expect(mismatch).toContainText('someone-else');
  await expectAccessible(page, 'profile-restore-username-mismatch');
  await mismatch.getByRole('button', { name: 'Cancel' }).click();
  await expect(restore.getByText('Restore cancelled due to username mismatch.')).toBeVisible();

  // Two-factor: the setup panel (secret and QR code), then the disable prompt and its confirmation.
  const twoFactor = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await twoFactor.getByRole('button', { name: 'Enable 2FA' }).click();
  await expect(twoFactor.getByRole('button', { name: 'Verify & Enable' })).toBeVisible();
  await expectAccessible(page, 'profile-2fa-setup');
  const authenticator = new Authenticator((await twoFactor.getByLabel('Two-factor secret').textContent()) ?? '');
  await twoFactor.getByLabel('Authentication Code', { exact: true }).fill(await authenticator.nextCode());
  await twoFactor.getByRole('button', { name: 'Verify & Enable' }).click();
  await twoFactor.getByRole('button', { name: 'Disable 2FA' }).click();
  const disable = twoFactor.getByRole('form', { name: 'Disable two-factor authentication' });
  await disable.getByRole('button', { name: 'Disable' }).click();
  await expect(disable.getByLabel('Login Password')).toHaveAccessibleDescription('Please enter your current login password.');
  await expectAccessible(page, 'profile-2fa-disable-prompt');
  await disable.getByLabel('Login Password').fill(admin.password);
  await disable.getByRole('button', { name: 'Disable' }).click();
  const confirmDisable = page.getByRole('dialog', { name: 'Disable two-factor authentication?' });
  await expect(confirmDisable).toBeVisible();
  await expectAccessible(page, 'profile-2fa-disable-confirm');
  await confirmDisable.getByRole('button', { name: 'Disable 2FA' }).click();
  await expect(twoFactor.getByRole('button', { name: 'Enable 2FA' })).toBeVisible();
});

/** A public key on the server and no encrypted private key (the profile's warning state). */
async function giveAdminKeyPairPublicOnly(page: Page): Promise<{ publicKey: string }> {
  const pair = generateRsaKeyPair();
  const put = await page.request.put('/api/auth/public-key', { data: { public_key_spki: pair.publicKeySpki }, headers: await csrfHeaders(page) });
  expect(put.status(), await put.text()).toBe(200);
  return { publicKey: pair.publicKeySpki };
}
