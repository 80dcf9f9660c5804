// Uploaders and recipients in Firefox: Debian's firefox-esr (not Playwright's patched build),
// driven by puppeteer-core over WebDriver BiDi (support/firefox.ts), against the suite's server.
// - An anonymous uploader picks a 100 MiB file (over 8 MiB: the resumable tus lane, in three
//   PATCHes through the upload spool: RAMP_BODY_BYTES, TUS_CHUNK_BYTES, the rest) and a small
//   one on the upload link and presses Upload; the page reports both received, a new tus upload holds
//   the large file's whole ciphertext, and every stored blob decrypts (node:crypto, with the admin's
//   private key) to its original.
// - A recipient opens a download link for those files (keys in the fragment) in a fresh user
//   context: no 'Save All to Folder...' (Firefox has no File System Access API), and the large
//   file's own button saves it through the service worker with the original's SHA-256.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { createLinkResponse, type CreateLinkBody } from '../contract/download-links.ts';
import { cipherLength, formatFragment, unwrapFileKey } from '../server/crypto/index.ts';
import { createAdmin } from './support/admin.ts';
import { AdminClient } from './support/api-client.ts';
import { E2E_BASE_URL, E2E_DATA_DIR } from './support/environment.mjs';
import { completedDownload, firefoxInstalled, launchFirefox, type FirefoxSession } from './support/firefox.ts';
import { allReceived, decryptStored, MiB, sha256, writeRandomFile } from './support/resumeRig.ts';

/** The server's tus uploads (one file per upload, named by its 32-hex-digit id). */
const TUS_DIR = path.join(E2E_DATA_DIR, 'blobs', 'uploads');
const tusUploads = () => (fs.existsSync(TUS_DIR) ? fs.readdirSync(TUS_DIR).filter((name) => /^[0-9a-f]{32}$/.test(name)) : []);

/** What the page's upload took for request bodies, read after the upload (see the test's comment). */
interface UploadBodies {
  /** The page opened the OPFS spool (its directory upload-spool/<page id> exists). */
  spoolOpened: boolean;
  /** Chunks the spool could not take and that were sent from memory instead (performance marks). */
  chunksFromMemory: number;
}

function uploadBodies(page: Page): Promise<UploadBodies> {
  return page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    let pages = 0;
    try {
      const spool = await root.getDirectoryHandle('upload-spool');
      // keys() is in Firefox's DOM but not in TypeScript's for this handle.
      for await (const name of (spool as unknown as { keys(): AsyncIterable<string> }).keys()) if (name) pages += 1;
    } catch {
      // No spool directory: the page never opened the spool.
    }
    const fromMemory = performance.getEntriesByType('mark').filter((mark) => mark.name === 'sealdrop:spool-stalled' || mark.name === 'sealdrop:spool-failed');
    return { spoolOpened: pages > 0, chunksFromMemory: fromMemory.length };
  });
}

/** Records every iframe the page adds (the service-worker download starts in one, removed a while after). */
async function recordAddedIframes(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const added: string[] = [];
    (window as unknown as { __addedIframes: string[] }).__addedIframes = added;
    new MutationObserver((mutations) => {
      for (const mutation of mutations) for (const node of mutation.addedNodes) if (node instanceof HTMLIFrameElement) added.push(node.getAttribute('src') ?? '');
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { __addedIframes: string[] }).__addedIframes]);
}

let firefox: FirefoxSession | null = null;

test.afterEach(async () => {
  await firefox?.close();
  firefox = null;
});

test('Firefox ESR: a 100 MiB file through tus in three PATCHes and a small one uploaded anonymously and stored exactly; the recipient saves the large one through the service worker, SHA-256 equal', async () => {
  test.skip(!firefoxInstalled(), 'firefox-esr not installed'); // skip-reason: firefox-esr not installed (.ci/run installs it)
  test.setTimeout(120_000);
  const { admin, keys } = await AdminClient.create(E2E_BASE_URL, E2E_DATA_DIR, 'firefox');
  const folder = await admin.createFolder({ title: 'Firefox uploads', perform_mime_check: false });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-firefox-files-'));
  try {
    // An odd size, so that its ciphertext length is this file's alone.
    const big = { name: 'Aufnahme 100 MiB.mov', content: writeRandomFile(path.join(work, 'Aufnahme 100 MiB.mov'), 100 * MiB + 4321) };
    const small = { name: 'notes.txt', content: Buffer.from('Uploaded from Firefox.\n'.repeat(40), 'utf8') };
    fs.writeFileSync(path.join(work, small.name), small.content);
    firefox = await launchFirefox();
    const session = firefox;

    await test.step('upload: both files received, the large one through tus, both stored exactly', async () => {
      const tusBefore = new Set(tusUploads());
      const page = await session.browser.newPage();
      await page.goto(`${E2E_BASE_URL}/upload/${folder.link_token}`);
      await page.waitForSelector(`::-p-text(Upload Files for "${folder.title}")`);
      await page.waitForSelector('::-p-text(Drag and drop files or folders here)');
      const input = await page.$('input[data-testid=file-input]');
      expect(input, 'the file input').not.toBeNull();
      await input!.uploadFile(path.join(work, big.name), path.join(work, small.name));
      await (await page.waitForSelector('::-p-aria(Upload 2 files)'))!.click();
      await page.waitForSelector(`::-p-text(${allReceived(2)})`, { timeout: 60_000 });

      // Firefox (ESR 153 here) has OPFS synchronous access handles in dedicated workers, so the
      // page takes the upload spool (workers/ciphertext-spool.ts): each tus chunk's ciphertext is
      // written to disk by the worker and sent as a disk-backed File. Where a browser lacks them,
      // or a spool call stalls or fails, bodies are built in memory; either way the bytes the
      // server stores are the same, so this test asserts the outcome and only records the path.
      const bodies = await uploadBodies(page);
      const taken = bodies.spoolOpened ? (bodies.chunksFromMemory === 0 ? 'OPFS spool' : `OPFS spool, ${bodies.chunksFromMemory} chunk(s) from memory`) : 'memory';
      test.info().annotations.push({ type: 'upload bodies', description: taken });
      await page.close();

      // Specs running beside this one (a heavy one's large files) add tus uploads of their own to the
      // shared server's directory: only those of this file's ciphertext length are this page's.
      const newTus = tusUploads().filter((name) => !tusBefore.has(name));
      const ofThisFile = newTus.filter((name) => fs.statSync(path.join(TUS_DIR, name)).size === cipherLength(big.content.length));
      expect(ofThisFile, 'the large file went through one tus upload').toHaveLength(1);
      const records = await admin.listFiles(folder.id);
      expect(records.map((record) => record.original_filename).sort()).toEqual([big.name, small.name].sort());
      for (const file of [big, small]) {
        const record = records.find((candidate) => candidate.original_filename === file.name)!;
        expect(record.file_size, file.name).toBe(file.content.length);
        expect(record.file_hash, file.name).toBe(sha256(file.content));
        const plain = await decryptStored(admin, keys, record);
        expect(sha256(plain), file.name).toBe(sha256(file.content));
        expect(plain.equals(file.content), file.name).toBe(true);
      }
    });

    await test.step('recipient: no Save All to Folder, the per-file download saves the original through the service worker', async () => {
      const records = await admin.listFiles(folder.id);
      const body: CreateLinkBody = { file_ids: records.map((record) => record.id), password: null, reencrypted_keys_json: null, expiration_date: null };
      const created = await admin.request('POST', '/api/download/links', body);
      expect(created.status, 'creating the download link').toBe(201);
      const link = createLinkResponse.parse(await created.json());
      // As the admin's browser makes it: the file keys (unwrapped here) in the fragment.
      const fragment = formatFragment(new Map(records.map((record) => [String(record.id), unwrapFileKey(keys.privateKey, record.encrypted_key)])));

      // A fresh user context: its own storage, so no service worker yet and no cookies.
      const context = await session.browser.createBrowserContext();
      const page = await context.newPage();
      await page.goto(`${link.full_url}#${fragment}`);
      await page.waitForSelector('::-p-text(Files ready for download:)');
      // The same query finds the ZIP button beside which 'Save All to Folder...' would stand.
      expect(await page.$('::-p-text(Download All as ZIP)'), 'the ZIP button').not.toBeNull();
      expect(await page.$('::-p-text(Save All to Folder)'), "'Save All to Folder...' is offered only with the File System Access API").toBeNull();
      expect(await page.evaluate(() => typeof (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker)).toBe('undefined');

      const addedIframes = await recordAddedIframes(page);
      await (await page.waitForSelector(`::-p-aria(Download ${big.name})`))!.click();
      // 'Done!' shows for 3 s from when the last byte reached the download manager, which may be
      // before the file is complete on disk: both are awaited together.
      const [saved] = await Promise.all([
        completedDownload(session.downloadDir, big.name, big.content.length),
        page.waitForSelector(`::-p-aria(Done! ${big.name})`, { timeout: 60_000 }),
      ]);
      expect(sha256(fs.readFileSync(saved))).toBe(sha256(big.content));
      // The service-worker path: a hidden iframe navigated to the worker's /downloads/<id>/<name>
      // (src/features/downloads/serviceWorkerBridge.ts), on a page the worker controls.
      const iframes = (await addedIframes()).map((src) => src.replace(/^\/downloads\/[^/]+\//, '/downloads/<id>/'));
      expect(iframes).toEqual([`/downloads/<id>/${encodeURIComponent(big.name)}`]);
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${E2E_BASE_URL}/sw.js`);
      await context.close();
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test('Firefox ESR offers passkey sign-in (it has WebAuthn) beside an unchanged password sign-in', async () => {
  test.skip(!firefoxInstalled(), 'firefox-esr not installed'); // skip-reason: firefox-esr not installed (.ci/run installs it)
  test.setTimeout(90_000);
  const account = await createAdmin('firefox-signin');
  firefox = await launchFirefox();
  const page = await firefox.browser.newPage();
  await page.goto(`${E2E_BASE_URL}/login`);
  await page.waitForSelector('::-p-aria(Use a passkey)');
  expect(await page.evaluate(() => typeof window.PublicKeyCredential)).toBe('function');
  await (await page.waitForSelector('::-p-aria(Username)'))!.type(account.username);
  await (await page.waitForSelector('::-p-aria(Password)'))!.type(account.password);
  await (await page.waitForSelector('::-p-aria(Sign In)'))!.click();
  await page.waitForSelector('::-p-text(Admin Dashboard)', { timeout: 60_000 });
});
