// The installed app (issue 13): its notifications fit the window (every toast of a finished batch
// lies inside the viewport at 1280x720 and at a 375x812 phone, screenshots for review), Chromium
// finds nothing missing to install it (CDP Page.getInstallabilityErrors returns none), and a new
// version's service worker waits for "Reload to update" instead of taking over silently, showing
// its build digest; the About page shows the digest of dist/build-digests.json, and `npm run
// verify-site` finds the server serving exactly that build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { chromium, expect, test, type Page } from '@playwright/test';
import { AdminClient } from './support/api-client.ts';
import { expectAccessible } from './support/axe.ts';
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH, E2E_BASE_URL, E2E_DATA_DIR, E2E_REDUCED_MOTION } from './support/environment.mjs';

const SHOTS_DIR = process.env.UPLOAD_SHOTS_DIR ?? '/tmp/upload-shots';
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** The build digest the build wrote for the served dist/. */
function builtDigest(): string {
  return (JSON.parse(fs.readFileSync(path.join(DIST, 'build-digests.json'), 'utf8')) as { buildDigest: string }).buildDigest;
}

async function uploadLink(): Promise<string> {
  const { admin } = await AdminClient.create(E2E_BASE_URL, E2E_DATA_DIR, 'installed');
  const folder = await admin.createFolder({ title: 'Toasts', perform_mime_check: false });
  return `${E2E_BASE_URL}/upload/${folder.link_token}`;
}

/**
 * Each visible toast's box, as the browser lays it out, read in one go in the page: a toast that
 * hid between a count and a query of its own left that query waiting for it until the test's
 * timeout (seen once running beside other specs).
 */
async function toastBoxes(page: Page) {
  return page.locator('.notistack-SnackbarContainer > *').evaluateAll((toasts) =>
    toasts
      .map((toast) => {
        const { x, y, width, height } = toast.getBoundingClientRect();
        return { x, y, width, height, text: (toast as HTMLElement).innerText.trim() };
      })
      .filter((box) => box.width > 0 && box.height > 0),
  );
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 375, height: 812 },
]) {
  test(`toasts of a finished batch lie inside the window at ${viewport.width}x${viewport.height}`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-toasts-'));
    try {
      const files = ['first.bin', 'second with a rather long name.bin', 'third.bin'].map((name) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, randomBytes(40_000));
        return file;
      });
      await page.goto(await uploadLink());
      await page.getByTestId('file-input').setInputFiles(files);
      await page.getByRole('button', { name: 'Upload 3 files' }).click();
      const success = page.getByText('Upload successful! All 3 processed files received.');
      await expect(success).toBeVisible({ timeout: 60_000 });
      // Measure once the toasts' enter transitions have finished (the document's running animations
      // include CSS transitions), not after a guessed time.
      await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'), undefined, { timeout: 10_000 });
      fs.mkdirSync(SHOTS_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS_DIR, `toasts-${viewport.width}x${viewport.height}.png`) });
      const boxes = await toastBoxes(page);
      expect(boxes.length).toBeGreaterThan(0);
      for (const box of boxes) {
        expect(box.x, box.text).toBeGreaterThanOrEqual(0);
        expect(box.y, box.text).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, box.text).toBeLessThanOrEqual(viewport.width);
        expect(box.y + box.height, box.text).toBeLessThanOrEqual(viewport.height);
      }
      // The whole message is readable: not cut off inside its toast either.
      const message = page.locator('.notification-message', { hasText: 'Upload successful!' });
      expect(await message.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('Chromium reports no installability errors for the app', async () => {
  // A Playwright context is incognito ("in-incognito" is itself an installability error): a
  // persistent profile is what a person installs from.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-install-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS, reducedMotion: E2E_REDUCED_MOTION });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${E2E_BASE_URL}/login`);
    // The service worker must control the page for the install criteria.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    const cdp = await context.newCDPSession(page);
    const errors = async () =>
      ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> }).installabilityErrors.map((e) => e.errorId);
    await expect.poll(errors, { timeout: 15_000 }).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; data?: string };
    expect(manifest.errors).toEqual([]);
    const parsed = JSON.parse(manifest.data ?? '{}') as Record<string, unknown>;
    for (const field of ['id', 'scope', 'description', 'screenshots', 'icons']) expect(parsed[field], field).toBeDefined();
    const icons = parsed.icons as Array<{ purpose?: string }>;
    expect(icons.some((icon) => icon.purpose?.includes('maskable'))).toBe(true);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('a new service worker waits: the page offers "Reload to update", hides it while an upload runs, and takes the new version only when asked', async ({ page }) => {
  test.setTimeout(120_000);
  // The served build's worker script; a changed byte makes it a new version for the browser.
  const swFile = fileURLToPath(new URL('../dist/sw.js', import.meta.url));
  const original = fs.readFileSync(swFile);
  const link = await uploadLink();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-update-'));
  try {
    await page.goto(link);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const firstWorker = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL);

    fs.writeFileSync(swFile, Buffer.concat([original, Buffer.from(`\n// e2e version ${Date.now()}\n`)]));
    await page.reload();
    const prompt = page.getByTestId('update-prompt');
    await expect(prompt).toContainText('A new version of Sealdrop is ready.', { timeout: 30_000 });
    // The waiting version's digest, from the list it stored at install (unchanged here: only sw.js's bytes changed, not the list).
    await expect(prompt.getByTestId('build-digest')).toHaveText(builtDigest());
    // Not taken over silently: the new worker waits, the old one still controls the page.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(true);

    // While an upload runs the prompt is not offered (a reload would interrupt it).
    const file = path.join(dir, 'big.bin');
    fs.writeFileSync(file, randomBytes(60 * 1024 * 1024));
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    await expect(prompt).toHaveCount(0);
    await expect(page.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 60_000 });
    await expect(prompt).toBeVisible();

    // Asked: the new worker takes over and the page reloads under it.
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: 'Reload to update' }).click();
    await reloaded;
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(firstWorker);
    await expect(page.getByTestId('update-prompt')).toHaveCount(0);
  } finally {
    fs.writeFileSync(swFile, original);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the About page shows the build digest of dist/build-digests.json, and verify-site finds the server serving that build', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${E2E_BASE_URL}/login`);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The installed copy: a page the service worker controls (it claims open pages on first install).
  await page.goto(`${E2E_BASE_URL}/about`);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(page.getByRole('heading', { name: 'About Sealdrop' })).toBeVisible();
  await expect(page.getByTestId('build-digest')).toHaveText(builtDigest(), { timeout: 30_000 });
  await expect(page.getByText(/^Version: \d+\.\d+\.\d+/)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The worker really hashed its cached files (index.html, the scripts, the icons) against the list.
  const checked = await page.getByText(/^Checked just now: /).innerText();
  const [, matching, cached] = /(\d+) of the (\d+) cached files match/.exec(checked)!;
  expect(Number(cached)).toBeGreaterThan(10);
  expect(matching).toBe(cached);
  await expectAccessible(page, 'about');

  // The footer's link leads there from any screen.
  await page.goto(`${E2E_BASE_URL}/login`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'About Sealdrop and the code you are running' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/about`);

  const verify = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../cli/verify-site.ts', import.meta.url)), '--dist', DIST, E2E_BASE_URL], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(verify.stdout).toContain(`files identical`);
  expect(verify.stdout).toContain(builtDigest());
  expect(verify.status).toBe(0);
});
