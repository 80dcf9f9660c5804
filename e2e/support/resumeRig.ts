// What the resume specs (e2e/resume*.spec.ts) share: a real server of the spec's own with a
// recording pass-through proxy in front of it (support/tus-recorder.ts), so what was sent is proven
// from the server's side of the wire; and the reads of the tus log, the page's persisted queue and
// the stored blobs (decrypted by node:crypto) the assertions need.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { cipherLength, decryptBuffer, unwrapFileKey, type NodeKeyPair } from '../../server/crypto/index.ts';
import type { FileRecord } from '../../contract/files.ts';
import { AdminClient } from './api-client.ts';
import { ServerProcess } from './server-process.ts';
import { TusRecorder, type TusRequest } from './tus-recorder.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MiB = 1024 * 1024;
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
export const allReceived = (n: number) => `Upload successful! All ${n} processed files received.`;

export const creations = (log: readonly TusRequest[]) => log.filter((r) => r.method === 'POST' && r.metadata !== null);
export const patches = (log: readonly TusRequest[]) => log.filter((r) => r.method === 'PATCH');
/** Ciphertext bytes the server confirmed so far (the last answered PATCH's Upload-Offset). */
export const confirmed = (log: readonly TusRequest[]) => Math.max(0, ...patches(log).map((r) => (r.status === 204 ? (r.responseOffset ?? 0) : 0)));

export function writeRandomFile(file: string, size: number): Buffer {
  const content = randomBytes(size);
  fs.writeFileSync(file, content);
  return content;
}

export const FOLDER_TITLE = 'Resume';

export async function openLink(page: Page, link: string): Promise<void> {
  // The reload must go through even though an upload runs: the page asks (beforeunload), the person confirms.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(link);
  await expect(page.getByRole('heading', { name: `Upload Files for "${FOLDER_TITLE}"` })).toBeVisible();
}

/**
 * Proves what the page sent after `logIndex` (a reload or reopening): it asked the server for the
 * offset (HEAD) and sent exactly the bytes from there to the end, each PATCH continuing where the
 * last one ended. Returns the offset it resumed from and the bytes sent.
 */
export function expectContinuedFromServerOffset(after: readonly TusRequest[], total: number): { resumedFrom: number; sent: number } {
  const head = after.find((r) => r.method === 'HEAD');
  expect(head?.status).toBe(200);
  const resumedFrom = head!.responseOffset!;
  expect(resumedFrom).toBeGreaterThan(0);
  expect(resumedFrom).toBeLessThan(total);
  let expected = resumedFrom;
  for (const patch of patches(after)) {
    expect(patch.uploadOffset).toBe(expected);
    expect(patch.status).toBe(204);
    expected += patch.bodyBytes;
  }
  expect(expected).toBe(total);
  const sent = patches(after).reduce((sum, r) => sum + r.bodyBytes, 0);
  expect(sent).toBe(total - resumedFrom);
  return { resumedFrom, sent };
}

/** The keys or the values of the page's persisted upload queue in IndexedDB, read in the page. */
function readQueue(page: Page, method: 'getAll' | 'getAllKeys'): Promise<unknown[]> {
  return page.evaluate(
    (method) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('sealdrop-upload-queue');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction('entries', 'readonly').objectStore('entries')[method]();
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            db.close();
            resolve(request.result as unknown[]);
          };
        };
      }),
    method,
  );
}

/** The keys of the page's persisted upload queue in IndexedDB. */
export async function queueKeys(page: Page): Promise<string[]> {
  return (await readQueue(page, 'getAllKeys')).map(String).sort();
}

/** The entries of the page's persisted upload queue in IndexedDB. */
export function queueEntries(page: Page): Promise<unknown[]> {
  return readQueue(page, 'getAll');
}

export async function storedRecord(admin: AdminClient, folderId: number): Promise<FileRecord> {
  const records = await admin.listFiles(folderId);
  expect(records).toHaveLength(1);
  return records[0]!;
}

export async function decryptStored(admin: AdminClient, keys: NodeKeyPair, record: FileRecord): Promise<Buffer> {
  const response = await admin.downloadCiphertext(record.id);
  const sealed = Buffer.from(await response.arrayBuffer());
  expect(sealed.length).toBe(cipherLength(record.file_size));
  return decryptBuffer(unwrapFileKey(keys.privateKey, record.encrypted_key), Buffer.from(record.encryption_iv, 'base64'), sealed);
}

/** A server on `serverPort`, the recording proxy on the next port, and a scratch directory. */
export class ResumeRig {
  private constructor(
    readonly server: ServerProcess,
    readonly proxy: TusRecorder,
    readonly dataDir: string,
    readonly workDir: string,
  ) {}

  static async start(serverPort: number, name: string): Promise<ResumeRig> {
    const dataDir = path.join(ROOT, `.tmp/${name}-${serverPort}`);
    const server = new ServerProcess({ port: serverPort, dataDir, env: { UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
    await server.start();
    const proxy = await TusRecorder.start(serverPort + 1, server.url);
    return new ResumeRig(server, proxy, dataDir, fs.mkdtempSync(path.join(os.tmpdir(), `sealdrop-${name}-`)));
  }

  get log(): readonly TusRequest[] {
    return this.proxy.log;
  }

  async stop(): Promise<void> {
    await this.proxy.close();
    await this.server.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }

  /** An admin, a folder without content checks, and its upload link (through the proxy) opened in `page`. */
  async setUp(page: Page): Promise<{ admin: AdminClient; keys: NodeKeyPair; folderId: number; link: string }> {
    const { admin, keys } = await AdminClient.create(this.server.url, this.dataDir, 'resume');
    const folder = await admin.createFolder({ title: FOLDER_TITLE, perform_mime_check: false });
    const link = `${this.proxy.url}/upload/${folder.link_token}`;
    await openLink(page, link);
    return { admin, keys, folderId: folder.id, link };
  }

  /**
   * Reloads once the server holds at least `atLeast` bytes. Returns when the reload began and where
   * the log stood once the new page was there: requests from that index on are the new page's (the
   * old page's last PATCH, cut off by the reload, comes before it).
   */
  async reloadWhenConfirmed(page: Page, atLeast: number): Promise<{ logIndex: number; at: number }> {
    await expect.poll(() => confirmed(this.log), { timeout: 120_000, intervals: [20] }).toBeGreaterThanOrEqual(atLeast);
    const at = Date.now();
    const asked = page.waitForEvent('dialog', { timeout: 5000 }).then((d) => d.type()).catch(() => 'none');
    await page.reload();
    // Closing or reloading while an upload runs still asks first.
    expect(await asked).toBe('beforeunload');
    return { logIndex: this.log.length, at };
  }
}
