// Offline (issue 13), in the real browser against the real server: with the browser context
// offline, /dashboard and /upload/{token} open from the installed shell (the service worker's
// precache) with the offline notice; an upload running when the network goes away pauses, and
// continues by itself when it is back, without a click, and its blob arrives intact.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { AdminClient } from './support/api-client.ts';
import { E2E_BASE_URL, E2E_DATA_DIR } from './support/environment.mjs';

const NOTICE = 'You are offline. Anything that needs the server waits; uploads pause and continue by themselves when the connection is back.';

async function uploadFolder() {
  const { admin } = await AdminClient.create(E2E_BASE_URL, E2E_DATA_DIR, 'offline');
  const folder = await admin.createFolder({ title: 'Offline', perform_mime_check: false });
  return { admin, folder, link: `${E2E_BASE_URL}/upload/${folder.link_token}` };
}

/** Installs the service worker and lets it control the page, as a second visit would. */
async function installShell(page: Page): Promise<void> {
  await page.goto(`${E2E_BASE_URL}/login`);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

test('offline, /dashboard and /upload/{token} open from the installed shell with the offline notice', async ({ page, context }) => {
  const { link } = await uploadFolder();
  await installShell(page);
  await context.setOffline(true);
  try {
    await page.goto(`${E2E_BASE_URL}/dashboard`);
    await expect(page.getByTestId('offline-notice')).toHaveText(NOTICE);
    await expect(page.getByRole('link', { name: 'Sealdrop home' })).toBeVisible();
    await page.goto(link);
    await expect(page.getByTestId('offline-notice')).toHaveText(NOTICE);
  } finally {
    await context.setOffline(false);
  }
  // Back online the notice goes by itself.
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
});

test('an upload running when the network goes away continues by itself when it is back, without a click', async ({ page, context }) => {
  test.setTimeout(120_000);
  const { admin, folder, link } = await uploadFolder();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-offline-'));
  try {
    const file = path.join(dir, 'field recording.wav');
    const content = randomBytes(120 * 1024 * 1024 + 11);
    fs.writeFileSync(file, content);
    await page.goto(link);
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    const row = page.getByRole('list', { name: 'Files to upload' }).getByRole('listitem', { name: 'field recording.wav', exact: true });
    await expect(row).toHaveAttribute('data-status', 'uploading', { timeout: 30_000 });

    await context.setOffline(true);
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(row.getByTestId('queue-row-detail')).toHaveText('Connection lost: continuing automatically when it is back', { timeout: 30_000 });
    await expect(row).toHaveAttribute('data-status', 'uploading');
    await page.waitForTimeout(1500);
    await context.setOffline(false);

    // No click: the upload goes on from the server's offset and finishes.
    await expect(page.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 90_000 });
    const [record] = await admin.listFiles(folder.id);
    expect(record?.file_hash).toBe(createHash('sha256').update(content).digest('hex'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('API requests of a controlled page go to the network without the service worker, bodies included; the shell still comes from it', async ({ page, context }) => {
  const { admin, folder, link } = await uploadFolder();
  await installShell(page);
  // What the browser reports for each response: whether the worker answered it, and which of its
  // static routes (workers/sw-network-routes.ts) sent it past the worker.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const responses: { url: string; method: string; fromServiceWorker: boolean; routedTo: string | undefined }[] = [];
  const methods = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (event) => methods.set(event.requestId, event.request.method));
  cdp.on('Network.responseReceived', (event) => {
    responses.push({
      url: event.response.url,
      method: methods.get(event.requestId) ?? '?',
      fromServiceWorker: event.response.fromServiceWorker ?? false,
      routedTo: event.response.serviceWorkerRouterInfo?.matchedSourceType,
    });
  });

  await page.goto(link);
  await page.getByTestId('file-input').setInputFiles({ name: 'routed.txt', mimeType: 'text/plain', buffer: Buffer.from('past the worker\n') });
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(page.getByText('Upload successful! All 1 processed files received.')).toBeVisible({ timeout: 30_000 });
  expect(await admin.listFiles(folder.id)).toHaveLength(1);

  const shell = responses.find((r) => new URL(r.url).pathname === `/upload/${folder.link_token}`);
  expect(shell?.fromServiceWorker).toBe(true);
  const api = responses.filter((r) => new URL(r.url).pathname.startsWith('/api/'));
  // The upload's own POST (the ciphertext batch) is among them.
  expect(api.some((r) => r.method === 'POST' && new URL(r.url).pathname === `/api/upload/${folder.link_token}`)).toBe(true);
  for (const response of api) expect({ url: response.url, routedTo: response.routedTo, fromServiceWorker: response.fromServiceWorker }).toEqual({ url: response.url, routedTo: 'network', fromServiceWorker: false });
});
