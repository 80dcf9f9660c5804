// The command-line clients against a real server process, checked in the real browser:
// `npm run upload` sends a nested tree with unicode names and an empty file through a password
// gate and an e-mail gate (the code read from a real SMTP server and typed into the command), is
// killed in the middle of a large file and run again (it continues the same upload; the bytes the
// server already had are not sent again: counted at a proxy), then the admin downloads everything
// as a ZIP in Chromium (the app's service worker decrypts with crypto/) and gets identical bytes.
// Then the admin makes links in the browser (keys in the fragment, and the dialog's generated
// password), and `npm run fetch` opens both and writes identical bytes.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { readZip } from '../tests/support/zip.ts';
import { MailCatcher } from '../tests/server/upload-helpers.ts';
import { cipherLength } from '../server/crypto/index.ts';
import { signIn, type AdminAccount } from './support/admin.ts';
import { SPEC_PORTS } from './support/environment.mjs';
import { withoutFileSystemAccess } from './support/fileSystemAccess.ts';
import { giveAdminKeyPair, sha256 } from './support/files-seed.ts';
import { ServerProcess } from './support/server-process.ts';
import { TusRecorder } from './support/tus-recorder.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SERVER_PORT = SPEC_PORTS.cliServer;
const PROXY_PORT = SPEC_PORTS.cliProxy;
const MiB = 1024 * 1024;
const CHUNK_MIB = 4;

test.describe.configure({ mode: 'serial' });

const tree: Record<string, Buffer> = {
  'Übersicht.txt': Buffer.from('Grüße aus der Kommandozeile\n'.repeat(50)),
  'leer.txt': Buffer.alloc(0),
  'Belege/2025/Quittung №7 "Café".pdf': randomBytes(600_000),
  'Belege/日本語/写真.jpg': randomBytes(2 * MiB + 3),
  'Aufnahmen/große Aufnahme.mov': randomBytes(40 * MiB + 12_345),
};
const TOP = 'Scans Ærø';

let server: ServerProcess;
let mail: MailCatcher;
let proxy: TusRecorder;
let dataDir: string;
let workDir: string;
let account: AdminAccount;
let folder: { id: number; link_token: string };

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function command(name: 'upload' | 'fetch', args: string[], stdin?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli', `${name}.ts`), ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (stdin !== undefined) child.stdin.end(stdin);
  const done = new Promise<Finished>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

async function typeMailedCode(child: ReturnType<typeof command>['child'], earlier: number): Promise<void> {
  await expect.poll(() => mail.messages.length, { timeout: 20_000 }).toBeGreaterThan(earlier);
  child.stdin.end(`${mail.lastCodeFor('scanner@example.com')}\n`);
}

async function adminPage(context: BrowserContext): Promise<Page> {
  await withoutFileSystemAccess(context);
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

async function unlock(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Login Password Required' });
  await dialog.getByLabel('Login Password').fill(account.password);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
}

test.beforeAll(async () => {
  dataDir = path.join(ROOT, `.tmp/cli-e2e-${SERVER_PORT}`);
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-cli-e2e-'));
  mail = new MailCatcher();
  const smtpUrl = await mail.start();
  server = new ServerProcess({ port: SERVER_PORT, dataDir, env: { SMTP_URL: smtpUrl, PUBLIC_URL: `http://127.0.0.1:${SERVER_PORT}`, UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
  await server.start();
  proxy = await TusRecorder.start(PROXY_PORT, server.url);
  account = { username: `cli-${randomBytes(3).toString('hex')}`, password: `pw-${randomBytes(9).toString('base64url')}` };
  // The real admin CLI on purpose: the other specs make their accounts in the worker (support/accounts.ts),
  // so this is the end-to-end run of `npm run admin -- create-user` (tests/server/cli.test.ts has its rules).
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'create-user', account.username, '--password-stdin'], {
    cwd: ROOT,
    input: `${account.password}\n`,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  for (const [relative, content] of Object.entries(tree)) {
    const target = path.join(workDir, TOP, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
});

test.afterAll(async () => {
  await proxy?.close();
  await server?.stop();
  await mail?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('npm run upload through a password and an e-mail gate, killed mid-file and run again; the admin downloads identical bytes in the browser', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: server.url, acceptDownloads: true });
  const page = await adminPage(context);
  await giveAdminKeyPair(page, account.password);
  const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  const created = await page.request.post('/api/folders/', {
    data: { title: 'Scans vom Terminal', perform_mime_check: false, link_password: 'Tür auf 2026', require_email_verification: true, allowed_emails: ['scanner@example.com'] },
    headers: { 'x-csrftoken': csrf },
  });
  expect(created.status()).toBe(201);
  folder = (await created.json()) as { id: number; link_token: string };

  const args = [`${proxy.url}/upload/${folder.link_token}`, path.join(workDir, TOP), '--json', '--state-dir', path.join(workDir, 'state'), '--chunk-mib', String(CHUNK_MIB), '--password', 'Tür auf 2026', '--email', 'scanner@example.com'];
  const stopAt = 3 * CHUNK_MIB * MiB;
  proxy.holdPatchesFrom(stopAt);
  const first = command('upload', args);
  await typeMailedCode(first.child, 0);
  await expect.poll(() => proxy.log.some((entry) => entry.method === 'PATCH' && entry.uploadOffset === stopAt), { timeout: 60_000 }).toBe(true);
  first.child.kill('SIGKILL');
  await first.done;
  const uploadPath = proxy.log.find((entry) => entry.method === 'POST')!.location!;

  proxy.holdPatchesFrom(null);
  const logBefore = proxy.log.length;
  const second = command('upload', args);
  await typeMailedCode(second.child, 1);
  const result = await second.done;
  expect(result.code, result.stderr).toBe(0);
  const secondRun = proxy.log.slice(logBefore);
  expect(secondRun.filter((entry) => entry.method === 'POST')).toHaveLength(0);
  const patches = secondRun.filter((entry) => entry.method === 'PATCH');
  expect(patches.every((entry) => entry.path === uploadPath)).toBe(true);
  expect(patches[0]!.uploadOffset).toBe(stopAt);
  expect(patches.reduce((sum, entry) => sum + entry.bodyBytes, 0)).toBe(cipherLength(tree['Aufnahmen/große Aufnahme.mov']!.length) - stopAt);

  // The admin's browser: every file, as one ZIP, decrypted by the app.
  await page.goto(`/folders/view/${folder.id}`);
  const bar = page.getByRole('toolbar', { name: 'File actions' });
  const all = bar.getByRole('button', { name: `Download All (${Object.keys(tree).length})` });
  await expect(all).toBeEnabled();
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await all.click();
  await unlock(page);
  const download = await started;
  const entries = await readZip(fs.readFileSync(await download.path()));
  expect(entries.map((entry) => entry.name).sort()).toEqual(Object.keys(tree).map((name) => `${TOP}/${name}`).sort());
  for (const entry of entries) {
    const original = tree[entry.name.slice(TOP.length + 1)]!;
    expect(entry.data.length, entry.name).toBe(original.length);
    expect(sha256(entry.data), entry.name).toBe(sha256(original));
  }
  await context.close();
});

test('npm run fetch opens links the admin made in the browser: keys in the fragment, and a generated password', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server.url });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await adminPage(context);
  await page.goto(`/folders/view/${folder.id}`);
  const table = page.getByRole('table', { name: 'Files' });
  await expect(table).toBeVisible();
  await table.getByRole('button', { name: `Expand ${TOP}` }).click();
  const chosen = ['Übersicht.txt', 'leer.txt'];
  for (const name of chosen) await page.getByRole('checkbox', { name: `Select ${TOP}/${name}` }).check();

  // A link with the keys in its fragment.
  await page.getByRole('button', { name: 'Create Download Link...' }).click();
  await unlock(page);
  const dialog = page.getByRole('dialog', { name: 'Create Download Link' });
  await dialog.getByLabel('Protect with a password').uncheck();
  await dialog.getByLabel('Link expires').uncheck();
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const ready = page.getByRole('dialog', { name: 'Download Link Ready' });
  const fragmentUrl = await ready.getByRole('textbox', { name: 'Download link' }).inputValue();
  expect(fragmentUrl).toContain('#');
  await ready.getByRole('button', { name: 'Close' }).click();

  // A password link with the dialog's generated password.
  await page.getByRole('button', { name: 'Create Download Link...' }).click();
  const password = await dialog.getByLabel('Link password', { exact: true }).inputValue();
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const passwordUrl = await ready.getByRole('textbox', { name: 'Download link' }).inputValue();
  await ready.getByRole('button', { name: 'Close' }).click();
  await context.close();

  for (const [url, stdin, args] of [
    [fragmentUrl, undefined, []],
    [passwordUrl, `${password}\n`, ['--password-stdin']],
  ] as const) {
    const out = fs.mkdtempSync(path.join(workDir, 'fetched-'));
    const result = await command('fetch', [...args, url, out], stdin).done;
    expect(result.code, result.stderr).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual([...chosen].sort());
    for (const name of chosen) expect(fs.readFileSync(path.join(out, name)).equals(tree[name]!), name).toBe(true);
  }
});
