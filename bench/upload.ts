/**
 * npm run bench:upload -- --target https://host --link TOKEN [--force]   (QA mode: bench/upload-target.ts)
 * npm run bench:upload [-- --size=5g] [-- --repeat N] [-- --small N] [-- --phases=ceiling,plain,encrypted,resume,many] [-- --store=s3] [-- --only-5g] [-- --app-dir=DIR] [-- --smoke]
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
 *
 *   - the cost of a reload at half of the 1 GiB encrypted upload (bench/upload-resume.ts): bytes
 *     sent twice (must be none beyond what the reload cut off) and the CPU spent re-checking the
 *     part already sent before the upload continues, against the whole upload's.
 *
 * --smoke (npm run bench:smoke): every phase once with a 16 MiB file (the resume phase: 128 MiB,
 * PATCHes of 16, 64, 32 and 16 MiB, the second cut off) and 1,200 small files (over a thousand, so that the page writes
 * the count with a separator, as for the full run's 2,000), the
 * crypto references over 16 MiB; the same ends and checks (the server's records, the page's
 * success message, the resumed bytes), figures that mean nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildHarness } from '../e2e/crypto-harness/build.ts';
import type { EncryptRunResult, HarnessError, RateSample } from '../e2e/crypto-harness/harness-types.ts';
import { serveDirectory } from '../e2e/crypto-harness/static-server.ts';
import type { FileRecord } from '../contract/files.ts';
import { AdminClient } from '../e2e/support/api-client.ts';
import { ServerProcess } from '../e2e/support/server-process.ts';
import { startLocalS3, type LocalS3 } from '../scripts/s3-server/s3-server.ts';
import { BenchBrowser } from './bench-browser.ts';
import { parseQaTarget, QA_TARGET_HELP, QaTargetError } from './qa-target.ts';
import { runUploadTarget } from './upload-target.ts';
import { describeFreshMemory, freshMemoryMsPerMiB } from './fresh-memory.ts';
import { pageReporting } from './machine.ts';
import { cpuCost, machineCpuCost, endReportedByPage, measurePhase, plainUploadScript, printPhase, RUN_DEADLINE_MS, uploadPhases, type PhaseResult, type UploadSite } from './upload-phases.ts';
import { ensurePlainFile, ensureSmallFiles } from './upload-files.ts';
import { measureResume, printResume, type ResumeResult } from './upload-resume.ts';

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
const SMOKE = argv.includes('--smoke');
const REPEAT = Math.max(1, Number(option('repeat') ?? (SMOKE ? 1 : 3)));
const SMALL_COUNT = Math.max(1, Number(option('small') ?? (SMOKE ? 1200 : 2000)));
/** The big file: 1 GiB, 16 MiB with --smoke. */
const BIG_BYTES = SMOKE ? 16 * MiB : GiB;
const PORT = Number(process.env.BENCH_UPLOAD_PORT ?? 8195);
const STORES: Array<'disk' | 's3'> = option('store') === 's3' ? ['disk', 's3'] : ['disk'];
const ONLY_HUGE = argv.includes('--only-5g');
// --phases=ceiling,plain,encrypted,resume,many: only these phases (default all); a ratio needs both its phases.
const PHASES = new Set((option('phases') ?? 'ceiling,plain,encrypted,resume,many').split(','));
/** The resume phase's file: 1 GiB; with --smoke 128 MiB, enough for a PATCH of TUS_CHUNK_BYTES to cut off after the first. */
const RESUME_BYTES = SMOKE ? 128 * MiB : GiB;
const S3_PORT = 9440;
// --app-dir=<dir>: a build made beforehand (e.g. of a commit, while the working tree is mid-change).
const PREBUILT_APP = option('app-dir');
// Per port, like the data directory below: two benchmarks on other ports (BENCH_UPLOAD_PORT) at the
// same time must not rebuild each other's app or wipe each other's uploads mid-run.
const APP_DIR = PREBUILT_APP ?? root(`.tmp/bench-upload-app-${PORT}`);

/** The 2,000-file folder's browser PSS rise over idle must stay below this. */
const SMALL_FILES_PSS_RISE_TARGET_MIB = 160;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function buildApp(): void {
  const vite = root('node_modules/vite/bin/vite.js');
  // Into a directory of its own: a build of dist/ by someone else mid-run must not change the app.
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', APP_DIR, '--emptyOutDir'], { cwd: root(''), stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

/** Polls until the folder has `count` records. */
async function waitForRecords(admin: AdminClient, folderId: number, count: number, pollMs: number): Promise<FileRecord[]> {
  const deadline = Date.now() + RUN_DEADLINE_MS;
  while (Date.now() < deadline) {
    const files = await admin.listFiles(folderId);
    if (files.length >= count) return files;
    await sleep(pollMs);
  }
  const stored = (await admin.listFiles(folderId)).length;
  throw new Error(`timed out waiting for ${count} file records (${stored} stored): a file failed in the page`);
}

/**
 * The server started here: each run uploads into a folder of its own, deleted after the run; an
 * upload run ends at the server's upload_time of the folder's newest record (what the server
 * confirmed, not what the page showed).
 */
function localSite(server: ServerProcess, admin: AdminClient): UploadSite {
  return {
    origin: server.url,
    serverPid: server.pid!,
    async openRun(phaseName, run) {
      const folder = await admin.createFolder({ title: `${phaseName} #${run}`, perform_mime_check: true });
      return {
        linkToken: folder.link_token,
        async awaitEnd(end, files, startedAt, browser) {
          if (end === 'page') return endReportedByPage(browser);
          const records = await waitForRecords(admin, folder.id, files, files > 1 ? 1000 : 200);
          return (Math.max(...records.map((r) => Date.parse(r.upload_time))) - startedAt) / 1000;
        },
        finish: () => admin.deleteFolder(folder.id),
      };
    },
  };
}

interface CryptoLimit {
  sha256MBps: number;
  aesEncryptMBps: number;
  poolHashEncryptMBps: number;
}

/** The crypto references, measured with the crypto harness (as bench:crypto does) in the same browser. */
async function measureCryptoLimit(browser: BenchBrowser, bigFile: string): Promise<CryptoLimit> {
  const totalBytes = SMOKE ? 16 * MiB : 384 * MiB;
  const harness = await serveDirectory(await buildHarness());
  const mbps = (sample: RateSample) => sample.bytes / 1e6 / sample.seconds;
  try {
    return await browser.drive(harness.url, async (page) => {
      await page.waitForFunction(() => typeof window.cryptoHarness !== 'undefined');
      await page.evaluate(() => window.cryptoHarness.ready());
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

interface StoreRun {
  store: 'disk' | 's3';
  phases: PhaseResult[];
  encrypted?: PhaseResult;
  plain?: PhaseResult;
  ceiling?: PhaseResult;
  many?: PhaseResult;
  huge?: PhaseResult;
  resume?: ResumeResult;
}

/** Every phase against one server, on the disk store or on `s3`. */
async function measureStore(
  store: 'disk' | 's3',
  s3: LocalS3 | null,
  inputs: { big: string; resumeFile: string; small: { dir: string; bytes: number }; huge: string | null; plainScript: string },
): Promise<StoreRun> {
  const env: Record<string, string> = { LOG_LEVEL: 'warn', UPLOAD_SWEEP_INTERVAL_MINUTES: '0', STATIC_DIR: APP_DIR, BENCH_DISCARD_ROUTE: '1' };
  if (store === 's3') {
    const bucket = `bench-${Date.now()}`;
    await s3!.createBucket(bucket);
    Object.assign(env, s3!.env(bucket));
  }
  const server = new ServerProcess({ port: PORT, dataDir: root(`.tmp/bench-upload-data-${store}-${PORT}`), env });
  await server.start();
  const { big, small, huge, plainScript } = inputs;
  const label = (name: string) => (STORES.length > 1 ? `[${store}] ${name}` : name);
  const run: StoreRun = { store, phases: [] };
  try {
    const { admin, keys } = await AdminClient.create(server.url, server.dataDir, 'bench');
    const site = localSite(server, admin);
    const phases = uploadPhases({ big, bigBytes: BIG_BYTES, small: { ...small, count: SMALL_COUNT }, huge, plainScript, discardUrl: `${server.url}/api/bench/discard`, repeat: REPEAT, label, end: 'records' });
    if (!ONLY_HUGE) {
      if (PHASES.has('ceiling') && phases.ceiling) run.ceiling = await measurePhase(site, phases.ceiling);
      if (PHASES.has('plain')) run.plain = await measurePhase(site, phases.plain);
      if (PHASES.has('encrypted')) run.encrypted = await measurePhase(site, phases.encrypted);
      if (PHASES.has('resume')) {
        console.log(`  ${label('resume')}: the encrypted upload reloaded at half and resumed, through a recording proxy on port ${PORT + 1}`);
        run.resume = await measureResume({ serverUrl: server.url, serverPid: server.pid!, admin, keys, file: inputs.resumeFile, bytes: RESUME_BYTES, proxyPort: PORT + 1 });
      }
      if (PHASES.has('many')) run.many = await measurePhase(site, phases.many);
      run.phases.push(...[run.ceiling, run.plain, run.encrypted, run.many].filter((p) => p !== undefined));
    }
    if (phases.huge) {
      run.huge = await measurePhase(site, phases.huge);
      run.phases.push(run.huge);
    }
  } finally {
    await server.stop();
  }
  return run;
}

interface CpuFigures {
  encryptedCoreSecondsPerGiB?: number;
  plainCoreSecondsPerGiB?: number;
  encryptedCpuBoundMBps?: number;
  encryptedCpuBoundToPlainRatio?: number;
  encryptedToCpuBoundRatio?: number;
  encryptedMachineCoreSecondsPerGiB?: number;
  encryptedMachineCpuBoundMBps?: number;
  encryptedToMachineCpuBoundRatio?: number;
  encryptedStolenCores?: number;
}

/** The encrypted and plain phases' CPU per GiB, and the encrypted upload's CPU bound against plain (local mode). */
function cpuFigures(encrypted: PhaseResult, plain: PhaseResult): CpuFigures {
  const encryptedCost = cpuCost(encrypted, cpus().length);
  const plainCost = cpuCost(plain, cpus().length);
  if (!encryptedCost || !plainCost) return {};
  const encryptedMachineCost = machineCpuCost(encrypted, cpus().length);
  return {
    encryptedCoreSecondsPerGiB: encryptedCost.coreSecondsPerGiB,
    plainCoreSecondsPerGiB: plainCost.coreSecondsPerGiB,
    encryptedCpuBoundMBps: encryptedCost.cpuBoundMBps,
    encryptedCpuBoundToPlainRatio: Number((encryptedCost.cpuBoundMBps / plain.medianMBps).toFixed(2)),
    encryptedToCpuBoundRatio: Number((encrypted.medianMBps / encryptedCost.cpuBoundMBps).toFixed(2)),
    ...(encryptedMachineCost
      ? {
          encryptedMachineCoreSecondsPerGiB: encryptedMachineCost.coreSecondsPerGiB,
          encryptedMachineCpuBoundMBps: encryptedMachineCost.cpuBoundMBps,
          encryptedToMachineCpuBoundRatio: Number((encrypted.medianMBps / encryptedMachineCost.cpuBoundMBps).toFixed(2)),
          encryptedStolenCores: encrypted.stolenCores,
          encryptedBenchCores: encrypted.benchCores,
        }
      : {}),
  };
}

async function main(): Promise<void> {
  if (argv.includes('--help')) {
    console.log(`npm run bench:upload [-- --size=5g] [--repeat N] [--small N] [--phases=ceiling,plain,encrypted,resume,many] [--store=s3] [--only-5g] [--app-dir=DIR]\n\n${QA_TARGET_HELP}`);
    return;
  }
  const target = parseQaTarget(argv, process.env, '/upload/');
  const dir = root('.tmp/bench/');
  process.stdout.write('preparing input files under .tmp/bench (cached between runs)... ');
  if (SMOKE && (HUGE || target)) throw new Error('--smoke runs locally, without --size=5g');
  const big = SMOKE ? `${dir}plain-16m.bin` : `${dir}plain-1g.bin`;
  await ensurePlainFile(big, BIG_BYTES, 100);
  const resumeFile = SMOKE ? `${dir}plain-128m.bin` : big;
  if (PHASES.has('resume')) await ensurePlainFile(resumeFile, RESUME_BYTES, 100);
  const small = await ensureSmallFiles(dir, SMALL_COUNT);
  const huge = HUGE ? `${dir}plain-5g.bin` : null;
  if (huge) await ensurePlainFile(huge, 5 * GiB, 500);
  console.log('done');
  if (target) {
    const report = await runUploadTarget(target, { big, small: { ...small, count: SMALL_COUNT }, huge, plainScript: await plainUploadScript(), repeat: REPEAT, phases: PHASES });
    await writeReport('upload-target', report);
    return;
  }
  process.stdout.write(PREBUILT_APP ? `using the app built in ${PREBUILT_APP}... ` : 'building the app... ');
  if (!PREBUILT_APP) buildApp();
  const plainScript = await plainUploadScript();
  console.log('done');

  const s3 = STORES.includes('s3') ? await startLocalS3({ port: S3_PORT }) : null;
  try {
    const freshMemory = freshMemoryMsPerMiB();
    // Read once: the line printed and the JSON say the state the run was made in.
    const reporting = pageReporting();
    console.log(
      `Chromium (own process per phase, automation detached while uploading), ${cpus().length} cores, ${REPEAT} runs per phase (median); stores: ${STORES.join(', ')}; ${describeFreshMemory(freshMemory)}; ${reporting}\n`,
    );
    const limitBrowser = await BenchBrowser.launch();
    const crypto = await measureCryptoLimit(limitBrowser, big).finally(() => limitBrowser.close());
    const cryptoLimit = crypto.sha256MBps;
    console.log(
      `Crypto limit: SHA-256 ${cryptoLimit} MB/s on one core (AES-256-GCM ${crypto.aesEncryptMBps} MB/s); ` +
        `the pool hashes+encrypts a 1 GiB file at ${crypto.poolHashEncryptMBps} MB/s\n`,
    );

    const runs: StoreRun[] = [];
    for (const store of STORES) runs.push(await measureStore(store, s3, { big, resumeFile, small, huge, plainScript }));

    console.log('\nResults (median of runs):');
    for (const run of runs) {
      for (const p of run.phases) printPhase(p);
      if (run.resume) printResume(run.resume, run.encrypted);
    }
    const first = runs[0]!;
    let ratio;
    let smallFiles;
    if (first.encrypted && first.plain && first.many) {
      const lower = Math.min(cryptoLimit, first.plain.medianMBps);
      ratio = { encryptedMBps: first.encrypted.medianMBps, cryptoLimitMBps: cryptoLimit, plainUploadMBps: first.plain.medianMBps, value: Number((first.encrypted.medianMBps / lower).toFixed(2)), target: 0.7 };
      console.log(
        `\n  ${first.encrypted.name} ${first.encrypted.medianMBps} MB/s / min(crypto ${cryptoLimit}, plain upload ${first.plain.medianMBps}) = ratio ${ratio.value.toFixed(2)} (target >= 0.70)`,
      );
    }
    if (first.many) {
      const pssRiseMiB = first.many.browserPssRiseMiB;
      smallFiles = { count: SMALL_COUNT, filesPerSecond: first.many.medianFilesPerSecond, target: 500, browserPssRiseMiB: pssRiseMiB, browserPssRiseTargetMiB: SMALL_FILES_PSS_RISE_TARGET_MIB };
      console.log(`  small files: ${first.many.medianFilesPerSecond} files/s (target >= 500); browser PSS rise +${pssRiseMiB} MiB (target < ${SMALL_FILES_PSS_RISE_TARGET_MIB} MiB)`);
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
        // The spec's file hash is SHA-256 of the whole plaintext, one strictly sequential stream
        // per file (no incremental native digest in browsers: hash-wasm on one core). The encrypted
        // upload cannot outrun it, so sha256LimitToPlainRatio is the highest encrypted / plain
        // this machine allows even with every other cost at zero.
        sha256LimitMBps: cryptoLimit,
        sha256LimitToPlainRatio: ratio2(cryptoLimit, first.plain.medianMBps),
        encryptedToSha256LimitRatio: ratio2(first.encrypted.medianMBps, cryptoLimit),
        // CPU per byte (browser + server) and the rate all cores would allow at that cost:
        // encryptedCpuBoundToPlainRatio is the most encrypted / plain can be on this machine
        // without less work per byte.
        ...cpuFigures(first.encrypted, first.plain),
        targets: { plainToCeilingRatio: 0.85, encryptedToPlainRatio: 0.85, encryptedToCpuBoundRatio: 0.85 },
      };
      console.log(
        `  transport: ceiling ${transport.ceilingMBps} MB/s; plain tus / ceiling = ${transport.plainToCeilingRatio.toFixed(2)} (target >= 0.85); ` +
          `encrypted / plain = ${transport.encryptedToPlainRatio.toFixed(2)} (target >= 0.85)`,
      );
      console.log(
        `  SHA-256 of the plaintext on one core ${cryptoLimit} MB/s = ${transport.sha256LimitToPlainRatio.toFixed(2)} of plain (the most encrypted / plain can be here); ` +
          `encrypted / SHA-256 = ${transport.encryptedToSha256LimitRatio.toFixed(2)}`,
      );
      if (transport.encryptedCpuBoundMBps !== undefined) {
        console.log(
          `  CPU per GiB (browser + server): encrypted ${transport.encryptedCoreSecondsPerGiB} core-s, plain ${transport.plainCoreSecondsPerGiB} core-s; ` +
            `at that cost ${cpus().length} cores allow encrypted ${transport.encryptedCpuBoundMBps} MB/s = ${transport.encryptedCpuBoundToPlainRatio} of plain`,
        );
        console.log(`  encrypted / its CPU bound = ${transport.encryptedToCpuBoundRatio} (target >= 0.85: the share of the cores the encrypted upload keeps busy)`);
        if (transport.encryptedToMachineCpuBoundRatio !== undefined) {
          console.log(
            `  counted on the whole machine (the kernel's work for the upload included: ${transport.encryptedMachineCoreSecondsPerGiB} core-s per GiB) over the cores the hypervisor left (${transport.encryptedStolenCores} stolen): ` +
              `bound ${transport.encryptedMachineCpuBoundMBps} MB/s, encrypted / it = ${transport.encryptedToMachineCpuBoundRatio}`,
          );
        }
      }
    }
    const pssGrowth = Object.fromEntries(
      runs[0]!.phases.map((p) => [p.name, { browserIdlePssMiB: p.browserIdlePssMiB, browserPeakPssMiB: p.browserPeakPssMiB, growthMiB: p.browserPssRiseMiB }]),
    );
    for (const [name, g] of Object.entries(pssGrowth)) {
      console.log(`  browser PSS ${name}: idle ${g.browserIdlePssMiB} MiB, peak ${g.browserPeakPssMiB} MiB (the largest rise within a run +${g.growthMiB}; target for encrypted uploads: within 256 MiB)`);
    }
    let memoryCheck;
    if (first.huge && first.encrypted) {
      const browserGrowth = first.huge.browserPeakRssMiB - first.encrypted.browserPeakRssMiB;
      const serverGrowth = (first.huge.serverPeakRssMiB ?? 0) - (first.encrypted.serverPeakRssMiB ?? 0);
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
      freshMemoryMsPerMiB: freshMemory,
      pageReporting: reporting,
      repeat: REPEAT,
      smoke: SMOKE,
      stores: STORES,
      cryptoLimit: crypto,
      phases: runs.flatMap((run) => run.phases.map((p) => ({ store: run.store, ...p }))),
      resume: runs.flatMap((run) =>
        run.resume
          ? [{ store: run.store, ...run.resume, ...(run.encrypted?.bytes === run.resume.plainBytes ? { uninterruptedCpuSeconds: run.encrypted.cpuSecondsPerRun } : {}), targets: { resentBytes: 0 } }]
          : [],
      ),
      ratio,
      transport,
      browserPss: pssGrowth,
      smallFiles,
      memoryCheck,
      s3VersusDisk,
    };
    await writeReport('upload', report);
  } finally {
    await s3?.stop();
  }
}

async function writeReport(kind: string, report: { date: string }): Promise<void> {
  await mkdir(root('bench-results'), { recursive: true });
  const out = root(`bench-results/${kind}-${report.date.replace(/[:.]/g, '-')}.json`);
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten ${out}`);
}

try {
  await main();
} catch (error) {
  if (!(error instanceof QaTargetError)) throw error;
  console.error(`bench:upload: ${error.message}`);
  process.exitCode = 2;
}
