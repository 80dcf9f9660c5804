// Single sign-on in Firefox: Debian's firefox-esr over WebDriver BiDi (support/firefox.ts) against a
// server of its own and a real OpenID provider on loopback (support/ssoRig.ts). A person signs in
// through the provider, makes their keys (the device key a non-extractable CryptoKey in IndexedDB,
// which Firefox keeps as Chromium does), and downloads a file an uploader encrypted for them,
// byte-identical, through the service worker (Firefox has no File System Access). After a fresh
// load the key is locked again and /sso unlocks it with this browser's own copy, with nothing typed.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { E2E_PORT } from './support/environment.mjs';
import { sha256 } from './support/files-seed.ts';
import { completedDownload, firefoxInstalled, launchFirefox, type FirefoxSession } from './support/firefox.ts';
import { SsoRig } from './support/ssoRig.ts';

const rig = new SsoRig({
  port: Number(process.env.SSO_FIREFOX_E2E_PORT ?? E2E_PORT + 98),
  name: 'sso-firefox-e2e',
  users: { fiona: { email: 'fiona@staff.example', name: 'Fiona', groups: ['staff'] } },
});
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  if (firefoxInstalled()) await rig.start();
});
test.afterAll(() => rig.stop());

let firefox: FirefoxSession | null = null;
test.afterEach(async () => {
  await firefox?.close();
  firefox = null;
});

async function click(page: Page, ariaName: string): Promise<void> {
  await (await page.waitForSelector(`::-p-aria(${ariaName})`))!.click();
}

async function waitForPath(page: Page, pathname: string, timeout = 20_000): Promise<void> {
  await page.waitForFunction((expected) => location.pathname + location.search === expected, { timeout }, pathname);
}

test('Firefox ESR: single sign-on, keys made and kept on this browser, a file decrypted byte-identical', async ({ browser }) => {
  test.skip(!firefoxInstalled(), 'firefox-esr not installed'); // skip-reason: firefox-esr not installed (.ci/run installs it)
  test.setTimeout(180_000);
  firefox = await launchFirefox();
  const page = await firefox.browser.newPage();

  // Through the provider's page to /sso, where the first keys are made.
  await page.goto(`${rig.base}/login`);
  await click(page, 'Sign in with Example Staff');
  await page.waitForFunction((issuer) => location.href.startsWith(`${issuer}/interaction/`), {}, rig.provider.issuer);
  await (await page.waitForSelector('::-p-aria(Username)'))!.type('fiona');
  await click(page, 'Sign in');
  await waitForPath(page, '/sso');
  await click(page, 'Create my keys');
  await page.waitForSelector('[data-testid="recovery-key"]', { timeout: 60_000 });
  await click(page, 'I have stored my recovery key');
  await click(page, 'Continue');
  await waitForPath(page, '/dashboard');

  // A file for fiona, encrypted in an uploader's (Chromium) browser for her new public key.
  const folder = await page.evaluate(async () => {
      const csrf = /(?:^|; )csrftoken=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      const answer = await fetch('/api/folders/', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrftoken': csrf }, body: JSON.stringify({ title: 'Fiona files', perform_mime_check: false }) });
      return { status: answer.status, body: (await answer.json()) as { id: number; link_token: string } };
  });
  expect(folder.status).toBe(201);
  const content = randomBytes(400_000);
  await rig.uploadThroughLink(browser, folder.body.link_token, 'minutes.bin', content);

  // A fresh load: the key is locked; the first Download goes to /sso, which unlocks it with this
  // browser's copy and comes back; the second saves the file through the service worker.
  const folderPath = `/folders/view/${folder.body.id}`;
  await page.goto(`${rig.base}${folderPath}`);
  await click(page, 'Download minutes.bin');
  await waitForPath(page, `/sso?next=${encodeURIComponent(folderPath)}`);
  await waitForPath(page, folderPath);
  await click(page, 'Download minutes.bin');
  const saved = await completedDownload(firefox.downloadDir, 'minutes.bin', content.length);
  expect(sha256(fs.readFileSync(saved))).toBe(sha256(content));
});
