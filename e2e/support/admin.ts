// Helpers the end-to-end specs share: create admins with the real CLI against the e2e server's data
// directory, and sign in through the real login page.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from './environment.mjs';

export interface AdminAccount {
  username: string;
  password: string;
}

/**
 * A fresh admin with a unique name, created by the admin CLI (`npm run admin -- create-user --password-stdin`, without npm's start-up).
 * `orgRole`: the organisation role (`--role`); unset, the CLI's default (member, unless it is the first account).
 */
export function createAdmin(prefix = 'admin', email?: string, orgRole?: 'admin' | 'member'): AdminAccount {
  const account = { username: `${prefix}-${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(9).toString('base64url')}` };
  const args = ['--import', 'tsx', 'server/cli.ts', 'create-user', account.username, '--password-stdin'];
  if (email) args.push('--email', email);
  if (orgRole) args.push('--role', orgRole);
  execFileSync(process.execPath, args, {
    input: `${account.password}\n`,
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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
