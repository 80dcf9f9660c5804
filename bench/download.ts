/**
 * npm run bench:download [-- --size=5g] [-- --repeat N]
 *
 * Decrypt-to-disk throughput of the admin files screen in headless Chromium against a server of its
 * own: the real app, the real service worker, the browser's download manager writing to disk.
 * Prints, then writes as JSON under bench-results/:
 *   - the raw decrypt limit measured in the same browser in the same run (AES-256-GCM over 256 KiB
 *     records, one call at a time, as bench:crypto measures it; several calls in flight for context);
 *   - MB/s from the click on Download to the file complete on disk, for one 1 GiB file and for the
 *     ZIP of a 2 GiB folder (8 files of 256 MiB in two directories), the ratio to the limit, the
 *     browser's CPU use, and the peak memory of the browser's process tree (RSS and PSS);
 *   - with --size=5g also a 5 GiB file and the ZIP of a 5 GiB folder (ZIP64), and the memory check:
 *     the 5 GiB peak must stay within 128 MiB of the 1 GiB peak.
 * Every saved file is checked: SHA-256 of the file, or of each ZIP entry, against the plaintext.
 * Data is seeded from node through the multipart API as streams (nothing is staged on disk);
 * Chromium runs without --disable-dev-shm-usage (toolchain.md, measurement traps).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/environment.mjs';
import { ServerProcess } from '../e2e/support/server-process.ts';
import { PASSTHROUGH_SCOPE, PASSTHROUGH_SW_PATH, PASSTHROUGH_SW_SOURCE } from './download-passthrough-sw.ts';
import { createBenchAdmin, createBenchFolder, uploadStreamed, type SeedFile, type SeededFile } from './download-seed.ts';
import { hashZipEntries } from '../tests/support/zip.ts';
import { sha256OfRange } from './download-verify.ts';
import { findBrowserPid, PeakMemory, sampleTree } from './process-tree.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const argv = process.argv.slice(2);
const HUGE = argv.includes('--size=5g');
const repeatAt = argv.indexOf('--repeat');
const REPEAT = repeatAt >= 0 ? Math.max(1, Number(argv[repeatAt + 1])) : 3;
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const DATA_DIR = root('.tmp/bench-download-data');
const DOWNLOADS_DIR = root('.tmp/bench-download-out');
/** The benchmark serves its own copy of dist/ (plus the pass-through worker): other builds cannot swap it mid-run. */
const STATIC_DIR = root('.tmp/bench-download-static');

interface Phase {
  readonly name: string;
  readonly kind: 'file' | 'zip';
  readonly plainBytes: number;
  readonly runsMBps: number[];
  readonly medianMBps: number;
  readonly limitMBps: number;
  readonly ratio: number;
  /** Against the pass-through ceiling of the same run. */
  readonly ratioToCeiling: number;
  readonly browserCores: number;
  readonly peakRssMiB: number;
  readonly peakPssMiB: number;
  readonly idleRssMiB: number;
}

interface Limits {
  readonly sequentialDecryptMBps: number;
  readonly parallelDecryptMBps: number;
  /** Ciphertext passed through a bare service worker to disk, no decryption: the streaming ceiling. */
  passthroughToDiskMBps?: number;
  passthroughRunsMBps?: number[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mib = (bytes: number) => Math.round(bytes / MiB);

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

/** The measured app is the built one: rebuild when dist/ is older than its sources (as npm start does). */
function ensureBuild(): void {
  const built = join(root('dist'), 'index.html');
  const inputs = ['src', 'workers', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];
  if (existsSync(built) && inputs.every((input) => newestMtime(root(input)) <= statSync(built).mtimeMs)) return;
  console.log('building the app (dist/ is older than its sources)...');
  const result = spawnSync(process.execPath, [root('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root(''), stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

function singleFiles(): SeedFile[] {
  const files: SeedFile[] = [{ dir: '.', name: 'warmup.txt', size: 1024, seed: 1 }, { dir: 'media', name: 'one-gib.bin', size: GiB, seed: 2 }];
  if (HUGE) files.push({ dir: 'media', name: 'five-gib.bin', size: 5 * GiB, seed: 3 });
  return files;
}

function folderFiles(total: number, parts: number, seedBase: number): SeedFile[] {
  return Array.from({ length: parts }, (_, i) => ({ dir: i < parts / 2 ? 'raw/day-1' : 'raw/day-2', name: `part-${String(i + 1).padStart(2, '0')}.bin`, size: total / parts, seed: seedBase + i }));
}

/**
 * Raw AES-256-GCM decryption in this page: 256 KiB records, one call at a time, then 4 in flight.
 * Plain JavaScript text: tsx would wrap a TypeScript function's inner functions in a helper the
 * page does not have.
 */
const LIMITS_SCRIPT = `(async () => {
  const recordSize = 256 * 1024;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const records = [];
  for (let r = 0; r < 8; r++) {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const full = new Uint8Array(recordSize);
    for (let i = 0; i < recordSize; i += 65536) crypto.getRandomValues(full.subarray(i, i + 65536));
    records.push({ iv, data: new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, full)) });
  }
  const calls = 1024; // 256 MiB
  async function run(inFlight) {
    const started = performance.now();
    let next = 0;
    async function lane() {
      while (next < calls) {
        const record = records[next++ % records.length];
        await crypto.subtle.decrypt({ name: 'AES-GCM', iv: record.iv }, key, record.data);
      }
    }
    await Promise.all(Array.from({ length: inFlight }, lane));
    return (calls * recordSize) / 1e6 / ((performance.now() - started) / 1000);
  }
  await run(1);
  const sequential = Math.max(await run(1), await run(1));
  const parallel = Math.max(await run(4), await run(4));
  return { sequentialDecryptMBps: sequential, parallelDecryptMBps: parallel };
})()`;

async function measureLimits(page: Page): Promise<Limits> {
  return (await page.evaluate(LIMITS_SCRIPT)) as Limits;
}

/**
 * The ceiling: the same ciphertext through a bare service worker (bench/download-passthrough-sw.ts)
 * straight to the download manager, in a second tab of the same browser, REPEAT times.
 */
async function measurePassthrough(page: Page, memory: PeakMemory, baseUrl: string, file: SeededFile): Promise<number[]> {
  await page.evaluate(`navigator.serviceWorker.register('${PASSTHROUGH_SW_PATH}', { scope: '${PASSTHROUGH_SCOPE}' }).then(() => undefined)`);
  const tab = await page.context().newPage();
  for (let attempt = 0; ; attempt++) {
    await tab.goto(`${baseUrl}${PASSTHROUGH_SCOPE}page`);
    if ((await tab.title()) === 'bench') break;
    if (attempt > 20) throw new Error('the pass-through service worker did not take over its scope');
    await tab.waitForTimeout(250);
  }
  const runs: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const run = await timedDownload(tab, memory, () =>
      tab.evaluate(`(() => { const f = document.createElement('iframe'); f.hidden = true; f.src = '${PASSTHROUGH_SCOPE}passthrough?url=/api/folders/download/${file.id}'; document.body.append(f); })()`),
    );
    rmSync(run.savedPath, { force: true });
    runs.push(file.size / 1e6 / run.seconds);
  }
  await tab.close();
  return runs;
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

interface RunResult {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssBytes: number;
  readonly peakPssBytes: number;
  readonly savedPath: string;
}

async function timedDownload(page: Page, memory: PeakMemory, click: () => Promise<void>): Promise<RunResult> {
  await expect(page.getByRole('status', { name: 'Download progress' })).toBeHidden({ timeout: 60_000 });
  await page.waitForTimeout(1000); // let the previous run's garbage go
  const cpuBefore = (await sampleTree(memory.rootPid)).cpuSeconds;
  memory.start();
  let peak: { peakRssBytes: number; peakPssBytes: number };
  let savedPath: string;
  let seconds: number;
  try {
    const started = performance.now();
    const event = page.waitForEvent('download', { timeout: 120_000 });
    await click();
    const download = await event;
    savedPath = await download.path();
    seconds = (performance.now() - started) / 1000;
  } finally {
    peak = await memory.stop();
  }
  const cpuSeconds = (await sampleTree(memory.rootPid)).cpuSeconds - cpuBefore;
  return { seconds, cpuSeconds, ...peak, savedPath };
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

async function phase(
  page: Page,
  memory: PeakMemory,
  spec: {
    name: string;
    kind: 'file' | 'zip';
    plainBytes: number;
    limitMBps: number;
    ceilingMBps: number;
    click: () => Promise<void>;
    verify: (path: string) => Promise<void>;
  },
): Promise<Phase> {
  const idle = await sampleTree(memory.rootPid);
  const runs: RunResult[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const run = await timedDownload(page, memory, spec.click);
    await spec.verify(run.savedPath);
    rmSync(run.savedPath, { force: true });
    runs.push(run);
    process.stdout.write(`  ${spec.name}: run ${i + 1}: ${(spec.plainBytes / 1e6 / run.seconds).toFixed(0)} MB/s, peak RSS ${mib(run.peakRssBytes)} MiB\n`);
  }
  const mbps = runs.map((run) => spec.plainBytes / 1e6 / run.seconds);
  const medianMBps = median(mbps);
  return {
    name: spec.name,
    kind: spec.kind,
    plainBytes: spec.plainBytes,
    runsMBps: mbps.map((value) => Math.round(value)),
    medianMBps: Math.round(medianMBps),
    limitMBps: Math.round(spec.limitMBps),
    ratio: Number((medianMBps / spec.limitMBps).toFixed(2)),
    ratioToCeiling: Number((medianMBps / spec.ceilingMBps).toFixed(2)),
    browserCores: Number(median(runs.map((run) => run.cpuSeconds / run.seconds)).toFixed(2)),
    peakRssMiB: mib(Math.max(...runs.map((run) => run.peakRssBytes))),
    peakPssMiB: mib(Math.max(...runs.map((run) => run.peakPssBytes))),
    idleRssMiB: mib(idle.rssBytes),
  };
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

async function main(): Promise<void> {
  ensureBuild();
  rmSync(DOWNLOADS_DIR, { recursive: true, force: true });
  mkdirSync(DOWNLOADS_DIR, { recursive: true });
  rmSync(STATIC_DIR, { recursive: true, force: true });
  cpSync(root('dist'), STATIC_DIR, { recursive: true });
  writeFileSync(join(STATIC_DIR, PASSTHROUGH_SW_PATH.slice(1)), PASSTHROUGH_SW_SOURCE);
  const server = new ServerProcess({ port: await freePort(), dataDir: DATA_DIR, env: { STATIC_DIR } });
  await server.start();
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    process.stdout.write(`seeding through the multipart API (${HUGE ? '1 + 5 GiB files, 2 + 5 GiB folders' : '1 GiB file, 2 GiB folder'})... `);
    const admin = await createBenchAdmin(server.url, DATA_DIR);
    const single = await createBenchFolder(admin, 'Bench single files');
    const singleSeeded: SeededFile[] = [];
    for (const file of singleFiles()) singleSeeded.push(await uploadStreamed(server.url, single.link_token, admin.publicKeySpki, file));
    const folders = [{ title: 'Bench 2 GiB folder', files: folderFiles(2 * GiB, 8, 100) }];
    if (HUGE) folders.push({ title: 'Bench 5 GiB folder', files: folderFiles(5 * GiB, 10, 200) });
    const seededFolders: Array<{ id: number; title: string; files: SeededFile[] }> = [];
    for (const spec of folders) {
      const folder = await createBenchFolder(admin, spec.title);
      const files: SeededFile[] = [];
      for (const file of spec.files) files.push(await uploadStreamed(server.url, folder.link_token, admin.publicKeySpki, file));
      seededFolders.push({ id: folder.id, title: spec.title, files });
    }
    console.log('done');

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--disable-dev-shm-usage'], downloadsPath: DOWNLOADS_DIR });
    const memory = new PeakMemory(await findBrowserPid());
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await signInAndUnlock(page, server.url, admin.username, admin.password, single.id);
    const limits = await measureLimits(page);
    console.log(`\nChromium ${browser.version()}, ${cpus().length} cores, ${REPEAT} runs per phase (median)`);
    console.log(`Raw decrypt limit in this browser (AES-256-GCM, 256 KiB records): ${limits.sequentialDecryptMBps.toFixed(0)} MB/s one call at a time, ${limits.parallelDecryptMBps.toFixed(0)} MB/s with 4 in flight\n`);
    const limit = limits.sequentialDecryptMBps;
    const oneGiB = singleSeeded.find((file) => file.size === GiB)!;
    const ceiling = await measurePassthrough(page, memory, server.url, oneGiB);
    limits.passthroughToDiskMBps = Math.round(median(ceiling));
    limits.passthroughRunsMBps = ceiling.map((value) => Math.round(value));
    console.log(`Service-worker streaming ceiling (1 GiB of ciphertext passed through a bare service worker to disk, no decryption): ${limits.passthroughToDiskMBps} MB/s\n`);

    const phases: Phase[] = [];
    const fileTable = page.getByRole('table', { name: 'Files' });
    await fileTable.getByRole('button', { name: 'Expand media' }).click();
    for (const file of singleSeeded.filter((f) => f.size >= GiB)) {
      phases.push(
        await phase(page, memory, {
          name: `one file, ${file.size / GiB} GiB`,
          kind: 'file',
          plainBytes: file.size,
          limitMBps: limit,
          ceilingMBps: limits.passthroughToDiskMBps,
          click: () => fileTable.getByRole('button', { name: `Download ${file.name}` }).click(),
          verify: (path) => verifyFile(path, file),
        }),
      );
    }
    for (const folder of seededFolders) {
      // In-app navigation: a page load would forget the unlocked key (it lives in this page's memory).
      await page.getByRole('link', { name: 'Back to Dashboard' }).click();
      await page.getByRole('link', { name: folder.title }).click();
      await expect(page.getByRole('heading', { name: `Files in Folder: ${folder.title}` })).toBeVisible();
      const bytes = folder.files.reduce((sum, file) => sum + file.size, 0);
      phases.push(
        await phase(page, memory, {
          name: `ZIP of a ${bytes / GiB} GiB folder (${folder.files.length} files)`,
          kind: 'zip',
          plainBytes: bytes,
          limitMBps: limit,
          ceilingMBps: limits.passthroughToDiskMBps,
          click: () => page.getByRole('button', { name: `Download All (${folder.files.length})` }).click(),
          verify: (path) => verifyZip(path, folder.files),
        }),
      );
    }

    console.log('\nDecrypt to disk (click to complete file), median; ratio to the raw decrypt limit and to the streaming ceiling; browser process tree:');
    for (const p of phases) {
      console.log(
        `  ${p.name.padEnd(34)} ${String(p.medianMBps).padStart(5)} MB/s  ratio ${p.ratio.toFixed(2)} (ceiling ${p.ratioToCeiling.toFixed(2)})  ${p.browserCores.toFixed(2)} cores  peak RSS ${p.peakRssMiB} MiB (idle ${p.idleRssMiB}), PSS ${p.peakPssMiB} MiB`,
      );
    }
    let memoryCheck: { oneGiBPeakRssMiB: number; fiveGiBPeakRssMiB: number; differenceMiB: number; withinTarget: boolean } | undefined;
    if (HUGE) {
      const one = phases.find((p) => p.name === 'one file, 1 GiB')!;
      const five = phases.find((p) => p.name === 'one file, 5 GiB')!;
      const difference = five.peakRssMiB - one.peakRssMiB;
      memoryCheck = { oneGiBPeakRssMiB: one.peakRssMiB, fiveGiBPeakRssMiB: five.peakRssMiB, differenceMiB: difference, withinTarget: difference <= 128 };
      console.log(`\nMemory: 5 GiB file peak RSS ${five.peakRssMiB} MiB vs 1 GiB ${one.peakRssMiB} MiB: ${difference >= 0 ? '+' : ''}${difference} MiB (target: within 128 MiB) ${memoryCheck.withinTarget ? 'OK' : 'OVER'}`);
    }
    const report = { date: new Date().toISOString(), chromium: browser.version(), cores: cpus().length, repeat: REPEAT, limits, phases, memoryCheck };
    mkdirSync(root('bench-results'), { recursive: true });
    const out = root(`bench-results/download-${report.date.replace(/[:.]/g, '-')}.json`);
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwritten ${out}`);
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(DOWNLOADS_DIR, { recursive: true, force: true });
    rmSync(DATA_DIR, { recursive: true, force: true });
    rmSync(STATIC_DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
