/**
 * bench:download against a server of its own: seeds it through the multipart API (plaintext known,
 * so every saved byte is checked by SHA-256), signs in on the admin files screen and measures the
 * pass-through ceiling, single files and ZIPs of folders (and the direct-to-disk path, see
 * download-direct.ts) in one browser.
 */
import { cpSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { ServerProcess } from '../e2e/support/server-process.ts';
import { hashZipEntries } from '../tests/support/zip.ts';
import { directSpec, writeCeilingSpec } from './download-direct.ts';
import { median } from './median.ts';
import { PASSTHROUGH_SW_PATH, PASSTHROUGH_SW_SOURCE } from './download-passthrough-sw.ts';
import {
  measureDecryptLimits,
  passthroughCeilings,
  runRounds,
  summarize,
  timedDownload,
  toPhase,
  type PhaseSpec,
  type BenchContext,
  type MeasuredRun,
} from './download-phases.ts';
import { createBenchAdmin, createBenchFolder, uploadStreamed, type SeedFile, type SeededFile } from './download-seed.ts';
import { sha256OfRange } from './download-verify.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** The single file and the folder of a run: 1 GiB and 2 GiB, or a few MiB with --smoke. */
function sizes(smoke: boolean): { file: number; folder: number } {
  return smoke ? { file: 8 * MiB + 4321, folder: 8 * MiB } : { file: GiB, folder: 2 * GiB };
}

function singleFiles(huge: boolean, smoke: boolean): SeedFile[] {
  const files: SeedFile[] = [{ dir: '.', name: 'warmup.txt', size: 1024, seed: 1 }, { dir: 'media', name: 'one-gib.bin', size: sizes(smoke).file, seed: 2 }];
  if (huge) files.push({ dir: 'media', name: 'five-gib.bin', size: 5 * GiB, seed: 3 });
  return files;
}

function folderFiles(total: number, parts: number, seedBase: number): SeedFile[] {
  return Array.from({ length: parts }, (_, i) => ({ dir: i < parts / 2 ? 'raw/day-1' : 'raw/day-2', name: `part-${String(i + 1).padStart(2, '0')}.bin`, size: total / parts, seed: seedBase + i }));
}

async function signInAndUnlock(page: Page, baseUrl: string, username: string, password: string, folderId: number): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/dashboard$/);
  // Let the service worker install and take control before anything is measured.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  await page.goto(`${baseUrl}/folders/view/${folderId}`);
  const warmup = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download warmup.txt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Login Password Required' });
  await dialog.getByLabel('Login Password').fill(password);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await (await warmup).path();
}

async function verifyFile(path: string, file: SeededFile): Promise<void> {
  const size = statSync(path).size;
  if (size !== file.size) throw new Error(`${file.name}: saved ${size} bytes, expected ${file.size}`);
  if ((await sha256OfRange(path)) !== file.sha256) throw new Error(`${file.name}: SHA-256 differs from the plaintext`);
}

async function verifyZip(path: string, files: SeededFile[]): Promise<void> {
  const entries = await hashZipEntries(path);
  if (entries.length !== files.length) throw new Error(`ZIP has ${entries.length} entries, expected ${files.length}`);
  for (const file of files) {
    const entry = entries.find((candidate) => candidate.name === `${file.dir}/${file.name}`);
    if (!entry || entry.compressionMethod !== 0 || entry.size !== file.size) throw new Error(`ZIP entry ${file.dir}/${file.name} is missing or has the wrong size`);
    if (entry.sha256 !== file.sha256) throw new Error(`ZIP entry ${file.name}: SHA-256 differs`);
  }
}

/** A port nobody listens on now (other benchmarks and test servers run on this machine too). */
async function freePort(): Promise<number> {
  if (process.env.BENCH_PORT) return Number(process.env.BENCH_PORT);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function runLocal(bench: BenchContext): Promise<MeasuredRun> {
  const { dataDir, staticDir } = bench.paths;
  rmSync(staticDir, { recursive: true, force: true });
  cpSync(bench.paths.dist, staticDir, { recursive: true });
  writeFileSync(join(staticDir, PASSTHROUGH_SW_PATH.slice(1)), PASSTHROUGH_SW_SOURCE);
  mkdirSync(dataDir, { recursive: true });
  const server = new ServerProcess({ port: await freePort(), dataDir, env: { STATIC_DIR: staticDir } });
  await server.start();
  try {
    const { file: fileSize, folder: folderSize } = sizes(bench.smoke);
    process.stdout.write(`seeding through the multipart API (${bench.huge ? '1 + 5 GiB files, 2 + 5 GiB folders' : `${+(fileSize / GiB).toFixed(3)} GiB file, ${+(folderSize / GiB).toFixed(3)} GiB folder`})... `);
    const admin = await createBenchAdmin(server.url, dataDir);
    const single = await createBenchFolder(admin, 'Bench single files');
    const singleSeeded: SeededFile[] = [];
    for (const file of singleFiles(bench.huge, bench.smoke)) singleSeeded.push(await uploadStreamed(server.url, single.link_token, admin.publicKeySpki, file));
    const folders = [{ title: `Bench ${+(folderSize / GiB).toFixed(3)} GiB folder`, files: folderFiles(folderSize, 8, 100) }];
    if (bench.huge) folders.push({ title: 'Bench 5 GiB folder', files: folderFiles(5 * GiB, 10, 200) });
    const seededFolders: Array<{ id: number; title: string; files: SeededFile[] }> = [];
    for (const spec of folders) {
      const folder = await createBenchFolder(admin, spec.title);
      const files: SeededFile[] = [];
      for (const file of spec.files) files.push(await uploadStreamed(server.url, folder.link_token, admin.publicKeySpki, file));
      seededFolders.push({ id: folder.id, title: spec.title, files });
    }
    console.log('done');

    const { page, memory, repeat } = await bench.openBrowser(server.pid);
    await signInAndUnlock(page, server.url, admin.username, admin.password, single.id);
    const limits = await measureDecryptLimits(page);
    bench.printLimits(limits);
    const oneGiB = singleSeeded.find((file) => file.size === fileSize)!;
    const fileTable = page.getByRole('table', { name: 'Files' });
    // In-app navigation between folders: a page load would forget the unlocked key (it lives in this page's memory).
    let shownFolder = 'Bench single files';
    const openFolder = async (title: string) => {
      if (shownFolder !== title) {
        await page.getByRole('link', { name: 'Back to Dashboard' }).click();
        await page.getByRole('link', { name: title }).click();
        await expect(page.getByRole('heading', { name: `Files in Folder: ${title}` })).toBeVisible();
        shownFolder = title;
      }
      const expand = fileTable.getByRole('button', { name: 'Expand media' });
      if (title === 'Bench single files' && (await expand.count()) > 0) await expand.click();
    };
    const openSingle = () => openFolder('Bench single files');

    const specs: PhaseSpec[] = await passthroughCeilings(page, memory, server.url, `/api/folders/download/${oneGiB.id}`, oneGiB.size);
    const bigFiles = singleSeeded.filter((f) => f.size >= fileSize);
    for (const file of bigFiles) {
      specs.push({
        name: `one file, ${+(file.size / GiB).toFixed(3)} GiB`,
        kind: 'file',
        plainBytes: file.size,
        prepare: openSingle,
        run: () => timedDownload(page, memory, () => fileTable.getByRole('button', { name: `Download ${file.name}` }).click()),
        verify: (run) => verifyFile(run.savedPath!, file),
      });
    }
    specs.push(writeCeilingSpec(page, memory, oneGiB.size));
    for (const file of bigFiles) specs.push(directSpec(page, memory, { name: file.name, size: file.size, sha256: file.sha256, button: fileTable.getByRole('button', { name: `Download ${file.name}` }) }, openSingle));
    for (const folder of seededFolders) {
      const bytes = folder.files.reduce((sum, file) => sum + file.size, 0);
      specs.push({
        name: `ZIP of a ${+(bytes / GiB).toFixed(3)} GiB folder (${folder.files.length} files)`,
        kind: 'zip',
        plainBytes: bytes,
        prepare: () => openFolder(folder.title),
        run: () => timedDownload(page, memory, () => page.getByRole('button', { name: `Download All (${folder.files.length})` }).click()),
        verify: (run) => verifyZip(run.savedPath!, folder.files),
      });
    }
    const wanted = specs.filter((spec) => spec.kind === 'ceiling' || bench.phases.has(spec.kind));
    const { phases, ceiling } = summarize(await runRounds(page, memory, wanted, repeat, bench.smoke), limits.sequentialDecryptMBps);
    const ceilingRuns = ceiling!.runs.map((run) => oneGiB.size / 1e6 / run.seconds);
    const ceilingCpu = toPhase(ceiling!, limits.sequentialDecryptMBps, null);
    return {
      limits,
      ceiling: {
        ceilingMBps: Math.round(median(ceilingRuns)),
        ceilingRunsMBps: ceilingRuns.map(Math.round),
        ceilingKind: 'service-worker pass-through to disk',
        ceilingBrowserCores: ceilingCpu.browserCores,
        ceilingServerCores: ceilingCpu.serverCores,
        ceilingCpuSecondsPerRunByThread: ceilingCpu.cpuSecondsPerRunByThread,
        ceilingFaultedMiBPerRunByThread: ceilingCpu.faultedMiBPerRunByThread,
      },
      phases,
    };
  } finally {
    await bench.closeBrowser();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(staticDir, { recursive: true, force: true });
  }
}
