// Helpers the end-to-end specs share: create admins against the e2e server's database as the admin
// CLI does (./accounts.ts), and sign in through the real login page.
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { createAccount } from './accounts.ts';
import { E2E_DATA_DIR } from './environment.mjs';

export interface AdminAccount {
  username: string;
  password: string;
}

/**
 * A fresh admin with a unique name, exactly as `npm run admin -- create-user <name> --password-stdin`
 * makes it, made in this worker (./accounts.ts). `email`: `--email`. `orgRole`: the organisation
 * role (`--role`); unset, the CLI's default (member, unless it is the first account).
 */
export async function createAdmin(prefix = 'admin', email?: string, orgRole?: 'admin' | 'member'): Promise<AdminAccount> {
  const account = { username: `${prefix}-${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(9).toString('base64url')}` };
  await createAccount(E2E_DATA_DIR, { ...account, email, orgRole });
  return account;
}

/** Signs in through the login page (password step only) and waits for the dashboard. */
export async function signIn(page: Page, account: AdminAccount): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
}
