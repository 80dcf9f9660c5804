// The API reference page renders the OpenAPI document in a real browser, from our own origin,
// under the app's Content-Security-Policy (a blocked script or style would leave it blank).
import { expect, test } from '@playwright/test';

test('the API reference page shows the operations of /api/openapi.json', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto('/api/docs');
  const origin = new URL(page.url()).origin;
  // The reference renders a large document: over 10 s on a loaded two-core machine.
  await expect(page.getByRole('heading', { name: /Sealdrop API/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-path="/api/upload/{link_token}/tus/{upload_id}"]').first()).toBeVisible();
  await expect(page.locator('[data-path="/api/folders/{id}"]').first()).toBeVisible();
  expect(violations).toEqual([]);
  expect(requested.length).toBeGreaterThanOrEqual(4);
  // No outside network: everything the page loads comes from our origin (or is inline data).
  expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
});
