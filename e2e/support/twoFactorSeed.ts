// Turns on two-factor authentication for an admin through the API (what the profile page does),
// so a spec can reach the login's code step without walking the setup screens first.
import { expect, type Browser } from '@playwright/test';
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
    const enable = await page.request.post('/api/auth/2fa/enable', { data: { code: authenticator.nextCode() }, headers });
    expect(enable.status(), await enable.text()).toBe(200);
    return authenticator;
  } finally {
    await context.close();
  }
}
