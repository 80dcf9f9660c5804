/**
 * npm run bench:upload [-- --size=5g] [-- --repeat N] [-- --small N] [-- --phases=ceiling,plain,encrypted,many] [-- --store=s3] [-- --only-5g] [-- --app-dir=DIR]
 *
 * Drives the real upload page in headless Chromium against the real server on loopback and
 * prints, then writes as JSON under bench-results/:
 *   - MB/s of the encrypted upload of one 1 GiB file (pick, press Upload, until the server has the
 *     file record), and files/s for a folder of small files (2,000 by default);
 *   - two references measured in the same run: the crypto limit (one core of SHA-256, as in
 *     bench:crypto, plus the pool's own hash+encrypt rate) and a plain upload of the same bytes
 *     without encryption through the same tus transport (the network/server limit); the ratio of
 *     the encrypted upload to the lower of the two;
 *   - peak memory (RSS and PSS) of the browser's process tree and of the server process;
 *   - with --size=5g also a 5 GiB file, and how peak memory compares with the 1 GiB run;
 *   - with --store=s3 every phase twice in the same run, first against the disk store, then against
 *     the S3 store (a local OpenStack Swift with s3api, started here on port 9440), and the ratio
 *     S3/disk of each phase's rate: the cost of object storage. --only-5g runs only the 5 GiB
 *     phase (with --size=5g), for its peak server memory.
 *
 * Measurement traps avoided (../shared/design/toolchain.md): Chromium is started by this script
 * with a DevTools port; Playwright connects over CDP only to pick files and press the button and
 * disconnects before the bytes flow, so its network tracking never copies a request body; the end
 * time is the server's own upload_time of the last record; no --disable-dev-shm-usage.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from '@playwright/test';
import { buildHarness } from '../e2e/crypto-harness/build.ts';
import type { EncryptRunResult, HarnessError, RateSample } from '../e2e/crypto-harness/harness-types.ts';
import { serveDirectory } from '../e2e/crypto-harness/static-server.ts';
import type { FileRecord } from '../contract/files.ts';
import { AdminClient } from '../e2e/support/api-client.ts';
import { ServerProcess } from '../e2e/support/server-process.ts';
import { startLocalS3, type LocalS3 } from '../scripts/s3-server/s3-server.ts';
import { PeakMemory, sampleTree } from './process-tree.ts';
import { BenchBrowser } from './bench-browser.ts';
import { ensurePlainFile, ensureSmallFiles } from './upload-files.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const argv = process.argv.slice(2);
const option = (name: string) => {
  const inline = argv.find((a) => a.startsWith(`--${name}=`));
  if (inline) return inline.slice(name.length + 3);
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
};
const HUGE = option('size') === '5g';
const REPEAT = Math.max(1, Number(option('repeat') ?? 3));
const SMALL_COUNT = Math.max(1, Number(option('small') ?? 2000));
const PORT = Number(process.env.BENCH_UPLOAD_PORT ?? 8195);
const STORES: Array<'disk' | 's3'> = option('store') === 's3' ? ['disk', 's3'] : ['disk'];
const ONLY_HUGE = argv.includes('--only-5g');
// --phases=ceiling,plain,encrypted,many: only these phases (default all); a ratio needs both its phases.
const PHASES = new Set((option('phases') ?? 'ceiling,plain,encrypted,many').split(','));
const S3_PORT = 9440;
// --app-dir=<dir>: a build made beforehand (e.g. of a commit, while the working tree is mid-change).
const PREBUILT_APP = option('app-dir');
const APP_DIR = PREBUILT_APP ?? root('.tmp/bench-upload-app');

interface PhaseRun {
  seconds: number;
  mbps: number;
  filesPerSecond: number;
}

interface PhaseResult {
  name: string;
  files: number;
  bytes: number;
  runs: PhaseRun[];
  medianMBps: number;
  medianFilesPerSecond: number;
  browserPeakRssMiB: number;
  browserPeakPssMiB: number;
  browserIdleRssMiB: number;
  browserIdlePssMiB: number;
  serverPeakRssMiB: number;
  serverIdleRssMiB: number;
  /** Cores kept busy on average during the runs (CPU seconds / wall seconds). */
  browserCores: number;
  serverCores: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mib = (bytes: number) => Math.round(bytes / MiB);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function buildApp(): void {
  const vite = root('node_modules/vite/bin/vite.js');
  // Into a directory of its own: a build of dist/ by someone else mid-run must not change the app.
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', APP_DIR, '--emptyOutDir'], { cwd: root(''), stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

async function plainUploadScript(): Promise<string> {
  const bundled = await build({
    entryPoints: [root('bench/upload-plain-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  return bundled.outputFiles[0]!.text;
}

/** Polls until the folder has `count` records; the run ends at the newest record's upload_time. */
async function waitForRecords(admin: AdminClient, folderId: number, count: number, pollMs: number): Promise<FileRecord[]> {
  // Far longer than any run here takes (a 5 GiB file at 20 MB/s is ~4.5 min); a run that never
  // completes (a file failed in the page) ends the benchmark with an error instead of hanging.
  const deadline = Date.now() + 15 * 60_000;
  while (Date.now() < deadline) {
    const files = await admin.listFiles(folderId);
    if (files.length >= count) return files;
    await sleep(pollMs);
  }
  const stored = (await admin.listFiles(folderId)).length;
  throw new Error(`timed out waiting for ${count} file records (${stored} stored): a file failed in the page`);
}

interface Rig {
  server: ServerProcess;
  admin: AdminClient;
  serverMemory: PeakMemory;
}

/** When a run ended, in seconds after `startedAt` (Date.now() when the button was pressed). */
type AwaitEnd = (rig: Rig & { browser: BenchBrowser }, folderId: number, files: number, startedAt: number) => Promise<number>;

/** The default end: the server's upload_time of the newest of the folder's `files` records. */
const endAtLastRecord: AwaitEnd = async (rig, folderId, files, startedAt) => {
  const records = await waitForRecords(rig.admin, folderId, files, files > 1 ? 1000 : 200);
  return (Math.max(...records.map((r) => Date.parse(r.upload_time))) - startedAt) / 1000;
};

/** The end the page reports in its title (bench/upload-plain-page.ts): for sends that make no record. */
const endReportedByPage: AwaitEnd = async (rig) => {
  const outcome = await rig.browser.waitForTitle('bench:', 15 * 60_000);
  if (!outcome.startsWith('done ')) throw new Error(`the page's run failed: ${outcome}`);
  return Number(outcome.slice('done '.length)) / 1000;
};

/**
 * One measured phase, in a browser of its own (so what an earlier phase left in memory does not
 * count), REPEAT times: `prepare` opens a page and picks the input (automation attached), `start`
 * presses the button (then the automation disconnects), and the run ends when the server has all
 * the records.
 */
async function phase(
  rig: Rig,
  name: string,
  files: number,
  bytes: number,
  prepare: (page: Page, linkToken: string) => Promise<void>,
  start: (page: Page, linkToken: string) => Promise<void>,
  repeat = REPEAT,
  awaitEnd: AwaitEnd = endAtLastRecord,
): Promise<PhaseResult> {
  const browser = await BenchBrowser.launch();
  try {
    return await measurePhase({ ...rig, browser, browserMemory: new PeakMemory(browser.pid) }, name, files, bytes, prepare, start, repeat, awaitEnd);
  } finally {
    await browser.close();
  }
}

async function measurePhase(
  rig: Rig & { browser: BenchBrowser; browserMemory: PeakMemory },
  name: string,
  files: number,
  bytes: number,
  prepare: (page: Page, linkToken: string) => Promise<void>,
  start: (page: Page, linkToken: string) => Promise<void>,
  repeat: number,
  awaitEnd: AwaitEnd,
): Promise<PhaseResult> {
  const runs: PhaseRun[] = [];
  let browserCpu = 0;
  let serverCpu = 0;
  let wall = 0;
  let browserPeakRss = 0;
  let browserPeakPss = 0;
  let serverPeakRss = 0;
  let browserIdle = 0;
  let browserIdlePss = 0;
  let serverIdle = 0;
  for (let i = 0; i < repeat; i++) {
    const folder = await rig.admin.createFolder({ title: `${name} #${i + 1}`, perform_mime_check: true });
    await rig.browser.drive(`${rig.server.url}/upload/${folder.link_token}`, (page) => prepare(page, folder.link_token));
    await sleep(1000);
    rig.browserMemory.start();
    rig.serverMemory.start();
    const idleBrowser = await rig.browserMemory.stop();
    const idleServer = await rig.serverMemory.stop();
    browserIdle = Math.max(browserIdle, idleBrowser.peakRssBytes);
    browserIdlePss = Math.max(browserIdlePss, idleBrowser.peakPssBytes);
    serverIdle = Math.max(serverIdle, idleServer.peakRssBytes);
    rig.browserMemory.start();
    rig.serverMemory.start();
    const cpuBefore = [await sampleTree(rig.browser.pid), await sampleTree(rig.server.pid!)];
    let startedAt = 0;
    await rig.browser.drive(null, async (page) => {
      startedAt = Date.now();
      await start(page, folder.link_token);
    });
    const seconds = await awaitEnd(rig, folder.id, files, startedAt);
    const cpuAfter = [await sampleTree(rig.browser.pid), await sampleTree(rig.server.pid!)];
    browserCpu += cpuAfter[0]!.cpuSeconds - cpuBefore[0]!.cpuSeconds;
    serverCpu += cpuAfter[1]!.cpuSeconds - cpuBefore[1]!.cpuSeconds;
    wall += (Date.now() - startedAt) / 1000;
    const browserPeak = await rig.browserMemory.stop();
    const serverPeak = await rig.serverMemory.stop();
    browserPeakRss = Math.max(browserPeakRss, browserPeak.peakRssBytes);
    browserPeakPss = Math.max(browserPeakPss, browserPeak.peakPssBytes);
    serverPeakRss = Math.max(serverPeakRss, serverPeak.peakRssBytes);
    runs.push({ seconds, mbps: bytes / 1e6 / seconds, filesPerSecond: files / seconds });
    process.stdout.write(`  ${name} run ${i + 1}: ${seconds.toFixed(2)} s, ${(bytes / 1e6 / seconds).toFixed(0)} MB/s, ${(files / seconds).toFixed(0)} files/s\n`);
    await rig.admin.deleteFolder(folder.id);
  }
  return {
    name,
    files,
    bytes,
    runs: runs.map((r) => ({ seconds: Number(r.seconds.toFixed(3)), mbps: Math.round(r.mbps), filesPerSecond: Math.round(r.filesPerSecond) })),
    medianMBps: Math.round(median(runs.map((r) => r.mbps))),
    medianFilesPerSecond: Math.round(median(runs.map((r) => r.filesPerSecond))),
    browserPeakRssMiB: mib(browserPeakRss),
    browserPeakPssMiB: mib(browserPeakPss),
    browserIdleRssMiB: mib(browserIdle),
    browserIdlePssMiB: mib(browserIdlePss),
    serverPeakRssMiB: mib(serverPeakRss),
    serverIdleRssMiB: mib(serverIdle),
    browserCores: Number((browserCpu / wall).toFixed(2)),
    serverCores: Number((serverCpu / wall).toFixed(2)),
  };
}

async function pickIntoPage(page: Page, testId: 'file-input' | 'folder-input', path: string, files: number): Promise<void> {
  await page.getByTestId('drop-area').waitFor();
  await page.getByTestId(testId).setInputFiles(path);
  await page.getByRole('button', { name: `Upload ${files} file${files === 1 ? '' : 's'}` }).waitFor();
}

const BENCH_INPUT_ID = 'bench-plain';

/** The references' page script (bench/upload-plain-page.ts) in the upload page, and the big file picked into an input of its own. */
async function pickIntoBenchInput(page: Page, plainScript: string, path: string): Promise<void> {
  await page.getByTestId('drop-area').waitFor();
  // The app's CSP forbids inline scripts; DevTools evaluation is not subject to it.
  await page.evaluate(plainScript);
  await page.evaluate((id) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = id;
    input.hidden = true;
    document.body.append(input);
  }, BENCH_INPUT_ID);
  await page.setInputFiles(`#${BENCH_INPUT_ID}`, path);
}

async function pressUpload(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Upload \d+ files?$/ }).click();
}

interface CryptoLimit {
  sha256MBps: number;
  aesEncryptMBps: number;
  poolHashEncryptMBps: number;
}

/** The crypto references, measured with the crypto harness (as bench:crypto does) in the same browser. */
async function measureCryptoLimit(browser: BenchBrowser, bigFile: string): Promise<CryptoLimit> {
  const harness = await serveDirectory(await buildHarness());
  const mbps = (sample: RateSample) => sample.bytes / 1e6 / sample.seconds;
  try {
    return await browser.drive(harness.url, async (page) => {
      await page.waitForFunction(() => typeof window.cryptoHarness !== 'undefined');
      await page.evaluate(() => window.cryptoHarness.ready());
      const totalBytes = 384 * MiB;
      const sha = await page.evaluate((t) => window.cryptoHarness.measureLimit({ kind: 'sha', updateBytes: 256 * 1024, totalBytes: t }), totalBytes);
      const aes = await page.evaluate((t) => window.cryptoHarness.measureLimit({ kind: 'aes', mode: 'encrypt', callBytes: 256 * 1024, totalBytes: t }), totalBytes);
      await page.setInputFiles('#files', bigFile);
      const runs: number[] = [];
      for (let i = 0; i < 2; i++) {
        const result = (await page.evaluate(() => window.cryptoHarness.encryptFiles({}))) as EncryptRunResult | HarnessError;
        if ('error' in result) throw new Error(JSON.stringify(result.error));
        runs.push(result.plainBytes / 1e6 / result.seconds);
      }
      await page.goto('about:blank');
      return { sha256MBps: Math.round(mbps(sha)), aesEncryptMBps: Math.round(mbps(aes)), poolHashEncryptMBps: Math.round(Math.max(...runs)) };
    });
  } finally {
    await harness.close();
  }
}

function printPhase(p: PhaseResult): void {
  const rate = p.files > 1 ? `${p.medianFilesPerSecond} files/s (${p.medianMBps} MB/s)` : `${p.medianMBps} MB/s`;
  console.log(
    `  ${p.name.padEnd(48)} ${rate.padStart(22)}   browser peak RSS ${p.browserPeakRssMiB} MiB (idle ${p.browserIdleRssMiB}), PSS ${p.browserPeakPssMiB} MiB (idle ${p.browserIdlePssMiB})   server peak RSS ${p.serverPeakRssMiB} MiB (idle ${p.serverIdleRssMiB})   cores busy: browser ${p.browserCores}, server ${p.serverCores}`,
  );
}

interface StoreRun {
  store: 'disk' | 's3';
  phases: PhaseResult[];
  encrypted?: PhaseResult;
  plain?: PhaseResult;
  ceiling?: PhaseResult;
  many?: PhaseResult;
  huge?: PhaseResult;
}

/** Every phase against one server, on the disk store or on `s3`. */
async function measureStore(
  store: 'disk' | 's3',
  s3: LocalS3 | null,
  inputs: { big: string; small: { dir: string; bytes: number }; huge: string | null; plainScript: string },
): Promise<StoreRun> {
  const env: Record<string, string> = { LOG_LEVEL: 'warn', UPLOAD_SWEEP_INTERVAL_MINUTES: '0', STATIC_DIR: APP_DIR, BENCH_DISCARD_ROUTE: '1' };
  if (store === 's3') {
    const bucket = `bench-${Date.now()}`;
    await s3!.createBucket(bucket);
    Object.assign(env, s3!.env(bucket));
  }
  const server = new ServerProcess({ port: PORT, dataDir: root(`.tmp/bench-upload-data-${store}`), env });
  await server.start();
  const { big, small, huge, plainScript } = inputs;
  const label = (name: string) => (STORES.length > 1 ? `[${store}] ${name}` : name);
  const run: StoreRun = { store, phases: [] };
  try {
    const { admin } = await AdminClient.create(server.url, server.dataDir, 'bench');
    const rig: Rig = { server, admin, serverMemory: new PeakMemory(server.pid!) };
    if (!ONLY_HUGE) {
      if (PHASES.has('encrypted')) run.encrypted = await phase(rig, label('encrypted upload, one 1 GiB file'), 1, GiB, (page) => pickIntoPage(page, 'file-input', big, 1), pressUpload);
      if (PHASES.has('plain')) {
        run.plain = await phase(
          rig,
          label('plain upload (no encryption), same 1 GiB, tus'),
          1,
          GiB,
          (page) => pickIntoBenchInput(page, plainScript, big),
          (page, linkToken) => page.evaluate(([token, id]) => window.benchPlainUpload(token, id), [linkToken, BENCH_INPUT_ID] as const),
        );
      }
      if (PHASES.has('ceiling')) {
        run.ceiling = await phase(
          rig,
          label('transport ceiling: same bytes, bare XHR to a discard route'),
          1,
          GiB,
          (page) => pickIntoBenchInput(page, plainScript, big),
          (page) => page.evaluate(([url, id]) => window.benchCeilingUpload(url, id), [`${server.url}/api/bench/discard`, BENCH_INPUT_ID] as const),
          REPEAT,
          endReportedByPage,
        );
      }
      if (PHASES.has('many')) run.many = await phase(
        rig,
        label(`encrypted upload, folder of ${SMALL_COUNT} small files`),
        SMALL_COUNT,
        small.bytes,
        (page) => pickIntoPage(page, 'folder-input', small.dir, SMALL_COUNT),
        pressUpload,
      );
      run.phases.push(...[run.ceiling, run.plain, run.encrypted, run.many].filter((p) => p !== undefined));
    }
    if (huge) {
      run.huge = await phase(rig, label('encrypted upload, one 5 GiB file'), 1, 5 * GiB, (page) => pickIntoPage(page, 'file-input', huge, 1), pressUpload, 1);
      run.phases.push(run.huge);
    }
  } finally {
    await server.stop();
  }
  return run;
}

async function main(): Promise<void> {
  const dir = root('.tmp/bench/');
  process.stdout.write('preparing input files under .tmp/bench (cached between runs)... ');
  const big = `${dir}plain-1g.bin`;
  await ensurePlainFile(big, GiB, 100);
  const small = await ensureSmallFiles(dir, SMALL_COUNT);
  const huge = HUGE ? `${dir}plain-5g.bin` : null;
  if (huge) await ensurePlainFile(huge, 5 * GiB, 500);
  console.log('done');
  process.stdout.write(PREBUILT_APP ? `using the app built in ${PREBUILT_APP}... ` : 'building the app... ');
  if (!PREBUILT_APP) buildApp();
  const plainScript = await plainUploadScript();
  console.log('done');

  const s3 = STORES.includes('s3') ? await startLocalS3({ port: S3_PORT }) : null;
  try {
    console.log(
      `Chromium (own process per phase, automation detached while uploading), ${cpus().length} cores, ${REPEAT} runs per phase (median); stores: ${STORES.join(', ')}\n`,
    );
    const limitBrowser = await BenchBrowser.launch();
    const crypto = await measureCryptoLimit(limitBrowser, big).finally(() => limitBrowser.close());
    const cryptoLimit = crypto.sha256MBps;
    console.log(
      `Crypto limit: SHA-256 ${cryptoLimit} MB/s on one core (AES-256-GCM ${crypto.aesEncryptMBps} MB/s); ` +
        `the pool hashes+encrypts a 1 GiB file at ${crypto.poolHashEncryptMBps} MB/s\n`,
    );

    const runs: StoreRun[] = [];
    for (const store of STORES) runs.push(await measureStore(store, s3, { big, small, huge, plainScript }));

    console.log('\nResults (median of runs):');
    for (const run of runs) for (const p of run.phases) printPhase(p);
    const first = runs[0]!;
    let ratio;
    let smallFiles;
    if (first.encrypted && first.plain && first.many) {
      const lower = Math.min(cryptoLimit, first.plain.medianMBps);
      ratio = { encryptedMBps: first.encrypted.medianMBps, cryptoLimitMBps: cryptoLimit, plainUploadMBps: first.plain.medianMBps, value: Number((first.encrypted.medianMBps / lower).toFixed(2)), target: 0.7 };
      console.log(
        `\n  encrypted 1 GiB ${first.encrypted.medianMBps} MB/s / min(crypto ${cryptoLimit}, plain upload ${first.plain.medianMBps}) = ratio ${ratio.value.toFixed(2)} (target >= 0.70)`,
      );
      smallFiles = { count: SMALL_COUNT, filesPerSecond: first.many.medianFilesPerSecond, target: 200 };
      console.log(`  small files: ${first.many.medianFilesPerSecond} files/s (target >= 200)`);
    }
    let transport;
    if (first.ceiling && first.plain && first.encrypted) {
      const ratio2 = (a: number, b: number) => Number((a / b).toFixed(2));
      transport = {
        ceilingMBps: first.ceiling.medianMBps,
        plainMBps: first.plain.medianMBps,
        encryptedMBps: first.encrypted.medianMBps,
        plainToCeilingRatio: ratio2(first.plain.medianMBps, first.ceiling.medianMBps),
        encryptedToPlainRatio: ratio2(first.encrypted.medianMBps, first.plain.medianMBps),
        encryptedToCeilingRatio: ratio2(first.encrypted.medianMBps, first.ceiling.medianMBps),
        targets: { plainToCeilingRatio: 0.85, encryptedToPlainRatio: 0.85 },
      };
      console.log(
        `  transport: ceiling ${transport.ceilingMBps} MB/s; plain tus / ceiling = ${transport.plainToCeilingRatio.toFixed(2)} (target >= 0.85); ` +
          `encrypted / plain = ${transport.encryptedToPlainRatio.toFixed(2)} (target >= 0.85)`,
      );
    }
    const pssGrowth = Object.fromEntries(
      runs[0]!.phases.map((p) => [p.name, { browserIdlePssMiB: p.browserIdlePssMiB, browserPeakPssMiB: p.browserPeakPssMiB, growthMiB: p.browserPeakPssMiB - p.browserIdlePssMiB }]),
    );
    for (const [name, g] of Object.entries(pssGrowth)) {
      console.log(`  browser PSS ${name}: idle ${g.browserIdlePssMiB} MiB, peak ${g.browserPeakPssMiB} MiB (+${g.growthMiB}; target for encrypted uploads: within 256 MiB)`);
    }
    let memoryCheck;
    if (first.huge && first.encrypted) {
      const browserGrowth = first.huge.browserPeakRssMiB - first.encrypted.browserPeakRssMiB;
      const serverGrowth = first.huge.serverPeakRssMiB - first.encrypted.serverPeakRssMiB;
      memoryCheck = { browserGrowthMiB: browserGrowth, serverGrowthMiB: serverGrowth, withinTarget: browserGrowth <= 128 && serverGrowth <= 128 };
      console.log(`  peak RSS 5 GiB vs 1 GiB: browser ${browserGrowth >= 0 ? '+' : ''}${browserGrowth} MiB, server ${serverGrowth >= 0 ? '+' : ''}${serverGrowth} MiB (target: within 128 MiB)`);
    }
    let s3VersusDisk;
    if (runs.length === 2) {
      const [disk, onS3] = runs as [StoreRun, StoreRun];
      const compare = (key: 'encrypted' | 'plain' | 'many' | 'huge') => {
        const d = disk[key];
        const o = onS3[key];
        if (!d || !o) return undefined;
        const rate = (p: PhaseResult) => (p.files > 1 ? p.medianFilesPerSecond : p.medianMBps);
        return { disk: rate(d), s3: rate(o), unit: d.files > 1 ? 'files/s' : 'MB/s', ratio: Number((rate(o) / rate(d)).toFixed(2)), diskServerPeakRssMiB: d.serverPeakRssMiB, s3ServerPeakRssMiB: o.serverPeakRssMiB };
      };
      s3VersusDisk = { encrypted1GiB: compare('encrypted'), plain1GiB: compare('plain'), smallFiles: compare('many'), encrypted5GiB: compare('huge') };
      console.log('\n  S3 / disk, same run:');
      for (const [name, c] of Object.entries(s3VersusDisk)) {
        if (c) console.log(`    ${name.padEnd(14)} disk ${c.disk} ${c.unit}, S3 ${c.s3} ${c.unit}: ratio ${c.ratio.toFixed(2)}   server peak RSS disk ${c.diskServerPeakRssMiB} MiB, S3 ${c.s3ServerPeakRssMiB} MiB`);
      }
    }
    const report = {
      date: new Date().toISOString(),
      cores: cpus().length,
      repeat: REPEAT,
      stores: STORES,
      cryptoLimit: crypto,
      phases: runs.flatMap((run) => run.phases.map((p) => ({ store: run.store, ...p }))),
      ratio,
      transport,
      browserPss: pssGrowth,
      smallFiles,
      memoryCheck,
      s3VersusDisk,
    };
    await mkdir(root('bench-results'), { recursive: true });
    const out = root(`bench-results/upload-${report.date.replace(/[:.]/g, '-')}.json`);
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwritten ${out}`);
  } finally {
    await s3?.stop();
  }
}

await main();
