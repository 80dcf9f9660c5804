// Turns on two-factor authentication for an admin through the API (what the profile page does),
// so a spec can reach the login's code step without walking the setup screens first; and signs in
// through both steps of the login page.
import { expect, type Browser, type Page } from '@playwright/test';
import { signIn, type AdminAccount } from './admin.ts';
import { Authenticator } from './totp.ts';

export async function enableTwoFactor(browser: Browser, account: AdminAccount): Promise<Authenticator> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signIn(page, account);
    const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
    const headers = { 'x-csrftoken': csrf };
    const setup = await page.request.post('/api/auth/2fa/setup', { headers });
    expect(setup.status(), await setup.text()).toBe(200);
    const authenticator = new Authenticator(((await setup.json()) as { secret: string }).secret);
    const enable = await page.request.post('/api/auth/2fa/enable', { data: { code: await authenticator.nextCode() }, headers });
    expect(enable.status(), await enable.text()).toBe(200);
    return authenticator;
  } finally {
    await context.close();
  }
}

/** Signs in through the login page's password and code steps; the code is made just before it is typed. */
export async function signInWithCode(page: Page, account: AdminAccount, authenticator: Authenticator): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText(account.username, { exact: true })).toBeVisible();
  await page.getByLabel('Authentication Code', { exact: true }).fill(await authenticator.nextCode());
  await page.getByRole('button', { name: 'Verify Code' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}
