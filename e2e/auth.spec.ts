import { expect, test, type Page } from '@playwright/test';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';
import { Authenticator } from './support/totp.ts';
import { signInWithCode } from './support/twoFactorSeed.ts';

async function logout(page: Page) {
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('signed-out visitors are sent to the login page; unknown paths show 404 with a way home', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();

  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/no/such/page');
  await expect(page.getByText('404 Not Found')).toBeVisible();
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a wrong password is refused inline and as a notification', async ({ page }) => {
  const admin = await createAdmin('wrongpw');
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Incorrect username or password.');
  await expect(page).toHaveURL(/\/login$/);
});

test('an admin enables 2FA, signs in with a code, changes the password and edits the profile', async ({ page }) => {
  const admin = await createAdmin('e2e');
  await signIn(page, admin);
  await expect(page.getByText(admin.username).first()).toBeVisible();

  // Enable two-factor authentication from the secret the page shows (no QR scanning needed).
  await page.getByRole('link', { name: 'My Profile' }).click();
  await expect(page.getByRole('heading', { name: 'My Profile & Settings' })).toBeVisible();
  const twoFactor = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await twoFactor.getByRole('button', { name: 'Enable 2FA' }).click();
  const secret = (await twoFactor.getByLabel('Two-factor secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(twoFactor.locator('svg').first()).toBeVisible(); // the QR code
  const authenticator = new Authenticator(secret);
  const verify = twoFactor.getByRole('button', { name: 'Verify & Enable' });
  await twoFactor.getByLabel('Authentication Code', { exact: true }).fill('12345');
  await expect(verify).toBeDisabled();
  await twoFactor.getByLabel('Authentication Code', { exact: true }).fill(await authenticator.nextCode());
  await verify.click();
  await expect(twoFactor.getByRole('button', { name: 'Disable 2FA' })).toBeVisible();

  // Signing in now takes the second step; a wrong code is refused, a fresh one accepted.
  await logout(page);
  await signInWithCode(page, admin, authenticator);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  // Change the login password: the new one works, the old one no longer does.
  await page.getByRole('link', { name: 'My Profile' }).click();
  const passwords = page.getByRole('region', { name: 'Change Login Password' });
  const newPassword = `${admin.password}-new`;
  await passwords.getByLabel('Old Password', { exact: true }).fill(admin.password);
  await passwords.getByLabel('New Password', { exact: true }).fill(newPassword);
  await passwords.getByLabel('Confirm New Password', { exact: true }).fill(`${newPassword}x`);
  await expect(passwords.getByRole('button', { name: 'Change Password' })).toBeDisabled();
  await passwords.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
  await passwords.getByRole('button', { name: 'Change Password' }).click();
  await expect(passwords.getByText('Password changed successfully.')).toBeVisible();

  await logout(page);
  await page.getByLabel('Username', { exact: true }).fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Incorrect username or password.');
  await signInWithCode(page, { ...admin, password: newPassword }, authenticator);

  // Edit the profile: an e-mail address is added and survives a reload.
  await page.getByRole('link', { name: 'My Profile' }).click();
  const info = page.getByRole('region', { name: 'Profile Information' });
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(info.getByText('No profile changes detected.')).toBeVisible();
  await info.getByLabel('Email', { exact: true }).fill('e2e-admin@example.com');
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(info.getByText('Current password is required to save profile changes.')).toBeVisible();
  await info.getByLabel('Current Password', { exact: true }).fill(newPassword);
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(info.getByText('Profile updated successfully.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Profile Information' }).getByLabel('Email', { exact: true })).toHaveValue(
    'e2e-admin@example.com',
  );
});
