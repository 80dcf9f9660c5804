// The system's "reduce motion" setting (WCAG 2.3.3): with it, the app's spinners stand still; without
// it, they turn. The start-up call that says who is signed in is held back so that the spinner of
// "Loading authentication status..." stays on screen while its style is read, then let through to
// the real server. The rest of the suite runs with reduced motion (e2e/support/environment.mjs).
import { expect, test, type Page } from '@playwright/test';

/** The running CSS animation of the waiting spinner: its keyframes' name, or "none". */
async function spinnerAnimation(page: Page): Promise<string> {
  const spinner = page.getByRole('status').filter({ hasText: 'Loading authentication status...' }).locator('.MuiCircularProgress-root');
  await expect(spinner).toBeAttached();
  return spinner.evaluate((element) => getComputedStyle(element).animationName);
}

test('spinners stand still when the system asks for reduced motion, and turn when it does not', async ({ page }) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/users/me', async (route) => {
    await released;
    await route.continue();
  });
  try {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    expect(await spinnerAnimation(page)).toBe('none');

    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await spinnerAnimation(page)).not.toBe('none');
  } finally {
    // The held call goes on to the server whatever happened above.
    release();
  }
  await expect(page.getByRole('status').filter({ hasText: 'Loading authentication status...' })).toHaveCount(0);
});
