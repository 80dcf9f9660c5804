/**
 * npm run bench:crypto [-- --4gib] [-- --record-sizes] [-- --repeat N] [-- --smoke]
 *
 * Runs the crypto worker pool in headless Chromium (the Vite-built harness of e2e/crypto-harness)
 * and prints, then writes as JSON under bench-results/:
 *   - the limits, measured in the same browser before the phases and again after them (each part
 *     counted at the mean of the two, report.ts's limitsAcrossTheRun): AES-256-GCM encrypt/decrypt and
 *     hash-wasm SHA-256 MB/s on one core at the record size, the cost of reading a File, one-shot
 *     digest against hash-wasm for small files, and with --record-sizes AES-GCM per call size;
 *   - the pool's hash+encrypt throughput for one 1 GiB file (hash on a second worker, and on the
 *     same worker for comparison) and for eight 128 MiB files at once, and decryption of 1 GiB,
 *     each with its ratio to its limit, the browser's CPU time per MB and the cores it got;
 *   - the peak memory of the browser's process tree per phase (RSS and PSS, sampled from /proc);
 *   - with --4gib, a 4 GiB single-file run, to show that peak memory does not grow with file size.
 * Files are generated once under .tmp/bench and reach the page by path (setInputFiles), so no file
 * bytes cross the automation channel; Chromium runs without --disable-dev-shm-usage.
 * --smoke (npm run bench:smoke): the same phases once, on 16 MiB and eight 2 MiB files, the limits
 * over 16 MiB; the figures mean nothing, the run shows that every phase still works.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { buildHarness } from '../e2e/crypto-harness/build.ts';
import type { DecryptRunResult, EncryptRunOptions, EncryptRunResult, HarnessError, LimitsMeasurement } from '../e2e/crypto-harness/harness-types.ts';
import { serveDirectory } from '../e2e/crypto-harness/static-server.ts';
import { encryptFileWithNode, ensurePlainFile, warmPageCache } from '../e2e/crypto-harness/test-files.ts';
import { describeFreshMemory, freshMemoryMsPerMiB } from './fresh-memory.ts';
import { pageReporting } from './machine.ts';
import { addByThread, benchCpuByThread, benchFaultsByThread, benchThreads, largestThreads, PeakMemory, printThreads, sampleTree, schedulerTimes, ThreadWatch } from './process-tree.ts';
import { BenchBrowser } from './bench-browser.ts';
import { hashPlacementFor, LARGE_FILES_AT_ONCE } from '../src/features/upload/engine/uploadLimits.ts';
import { analyse, isManyFilesPhase, limitsAcrossTheRun, MANY_FILES_CAPACITY_TARGET, phaseAgainst, printLimits, printPhases, type Limits, type MeasuredPhase, type PhaseResult, type Rate } from './report.ts';
import { median } from './median.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const RECORD_SIZE = 256 * 1024;
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const SMOKE = flag('--smoke');
const REPEAT = args.includes('--repeat') ? Math.max(1, Number(args[args.indexOf('--repeat') + 1])) : SMOKE ? 1 : 3;
/**
 * The one big file, each of the eight files, and the bytes of each limit's measurement: AES-GCM
 * and SHA-256 each take 1-2 CPU-s, since /proc gives each process's CPU time in 10 ms ticks and a
 * limit measured over 0.16 CPU-s (256 MiB of AES-GCM) moved by up to 2.4 times from run to run
 * (docs/operations.md, "capacityRatio, measured steadily").
 */
const SIZES = SMOKE
  ? { big: 16 * MiB, many: 2 * MiB, aesLimit: 16 * MiB, shaLimit: 16 * MiB }
  : { big: GiB, many: 128 * MiB, aesLimit: 2 * GiB, shaLimit: GiB };
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const DIR = root('.tmp/bench/');

const sizeName = (bytes: number) => (bytes >= GiB ? `${bytes / GiB} GiB` : `${bytes / MiB} MiB`);
const mib = (bytes: number) => Math.round(bytes / MiB);

/** A stalled browser operation fails the run with a message instead of hanging it. */
const STEP_TIMEOUT_MS = 10 * 60 * 1000;
async function inTime<T>(what: string, step: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${STEP_TIMEOUT_MS / 60000} minutes (stalled)`)), STEP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([step, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function ok<T extends object>(result: T | HarnessError): T {
  if ('error' in result) throw new Error(`harness error: ${JSON.stringify(result.error)}`);
  return result;
}

interface Inputs {
  readonly big: string;
  readonly many: string[];
  readonly sealed: string;
  readonly key: Buffer;
  readonly iv: Buffer;
  readonly huge: string | undefined;
}

async function prepareInputs(): Promise<Inputs> {
  await mkdir(DIR, { recursive: true });
  process.stdout.write('preparing input files under .tmp/bench (kept between runs)... ');
  const big = SMOKE ? `${DIR}plain-16m.bin` : `${DIR}plain-1g.bin`;
  const many = Array.from({ length: 8 }, (_, i) => (SMOKE ? `${DIR}plain-2m-${i}.bin` : `${DIR}plain-128m-${i}.bin`));
  const sealed = SMOKE ? `${DIR}sealed-16m.bin` : `${DIR}sealed-1g.bin`;
  await ensurePlainFile(big, SIZES.big, 100);
  for (const [i, path] of many.entries()) await ensurePlainFile(path, SIZES.many, 200 + i);
  const key = randomBytes(32);
  const iv = randomBytes(12);
  await encryptFileWithNode(big, sealed, key, iv);
  if (SMOKE && flag('--4gib')) throw new Error('--smoke and --4gib exclude each other');
  const huge = flag('--4gib') ? `${DIR}plain-4g.bin` : undefined;
  if (huge) await ensurePlainFile(huge, 4 * GiB, 400);
  console.log('done');
  return { big, many, sealed, key, iv, huge };
}

/**
 * REPEAT runs' totals by thread (addByThread) as an average per MB of `bytesPerRun`, times `scale`
 * (1000: CPU seconds become CPU-ms per MB; 1: MiB faulted in per MB).
 */
function perMBByThread(totals: ReadonlyMap<string, number>, bytesPerRun: number, scale = 1): Record<string, number> {
  return largestThreads([...totals].map(([thread, total]) => [thread, (total * scale) / REPEAT / (bytesPerRun / 1e6)] as const));
}

/** Runs `run` REPEAT times, sampling the browser's memory and CPU time around each run. */
async function measure(
  page: Page,
  memory: PeakMemory,
  name: string,
  kind: PhaseResult['kind'],
  run: () => Promise<{ plainBytes: number; seconds: number }>,
): Promise<MeasuredPhase> {
  await page.waitForTimeout(1000); // let the previous phase's garbage go before the idle sample
  const idle = await sampleTree(memory.rootPid);
  const runs: number[] = [];
  const cpuPerMB: number[] = [];
  let plainBytes = 0;
  let peakRss = 0;
  let peakPss = 0;
  let cpuSeconds = 0;
  let wallSeconds = 0;
  let waitSeconds = 0;
  const threadCpu = new Map<string, number>();
  const threadFaults = new Map<string, number>();
  for (let i = 0; i < REPEAT; i++) {
    const before = (await sampleTree(memory.rootPid)).cpuSeconds;
    const scheduledBefore = await schedulerTimes(memory.rootPid);
    const threadsBefore = await benchThreads(memory.rootPid, null);
    const threads = new ThreadWatch(memory.rootPid, null);
    threads.start();
    memory.start();
    let result: Awaited<ReturnType<typeof run>>;
    let peak: Awaited<ReturnType<PeakMemory['stop']>>;
    let threadsAfter: Awaited<ReturnType<ThreadWatch['stop']>>;
    try {
      result = await inTime(name, run());
    } finally {
      // Also when the run fails or stalls: the samplers' timers would keep the process alive.
      peak = await memory.stop();
      threadsAfter = await threads.stop();
    }
    addByThread(threadCpu, benchCpuByThread(threadsBefore, threadsAfter));
    addByThread(threadFaults, benchFaultsByThread(threadsBefore, threadsAfter));
    waitSeconds += (await schedulerTimes(memory.rootPid)).waitSeconds - scheduledBefore.waitSeconds;
    const used = (await sampleTree(memory.rootPid)).cpuSeconds - before;
    peakRss = Math.max(peakRss, peak.peakRssBytes);
    peakPss = Math.max(peakPss, peak.peakPssBytes);
    plainBytes = result.plainBytes;
    cpuSeconds += used;
    wallSeconds += result.seconds;
    runs.push(result.plainBytes / 1e6 / result.seconds);
    cpuPerMB.push((used * 1000) / (result.plainBytes / 1e6));
  }
  console.log(`  ${name}: ${runs.map((r) => r.toFixed(0)).join(', ')} MB/s`);
  // Per MB of plaintext, so phases of different sizes compare (the limits' split is per MB too).
  const cpuMsPerMBByThread = perMBByThread(threadCpu, plainBytes, 1000);
  printThreads(cpuMsPerMBByThread, 8, 'MB');
  const faultedMiBPerMBByThread = perMBByThread(threadFaults, plainBytes);
  printThreads(faultedMiBPerMBByThread, 6, 'MB', 'faultedMiB');
  const medianMBps = median(runs);
  return {
    name,
    kind,
    plainBytes,
    runsMBps: runs.map((r) => Math.round(r)),
    medianMBps: Math.round(medianMBps),
    cpuMsPerMB: Number(median(cpuPerMB).toFixed(2)),
    browserCores: Number((cpuSeconds / wallSeconds).toFixed(2)),
    waitingCores: Number((waitSeconds / wallSeconds).toFixed(2)),
    peakRssMiB: mib(peakRss),
    peakPssMiB: mib(peakPss),
    idleRssMiB: mib(idle.rssBytes),
    cpuMsPerMBByThread,
    faultedMiBPerMBByThread,
  };
}

/**
 * One limit, measured REPEAT times in the harness's limits worker: its wall-clock rate, and its
 * browser CPU time per MB, which other processes on the machine do not inflate the way they
 * inflate wall time. The per-core rate used as the limit is 1000 / (CPU ms per MB).
 */
async function measureLimit(page: Page, memory: PeakMemory, measurement: LimitsMeasurement): Promise<Rate> {
  const wall: number[] = [];
  const cost: number[] = [];
  const threadCpu = new Map<string, number>();
  const threadFaults = new Map<string, number>();
  let bytesPerRun = 0;
  for (let i = 0; i < REPEAT; i++) {
    const before = (await sampleTree(memory.rootPid)).cpuSeconds;
    const threadsBefore = await benchThreads(memory.rootPid, null);
    const { bytes, seconds } = await inTime(`limit ${JSON.stringify(measurement)}`, page.evaluate((m) => window.cryptoHarness.measureLimit(m), measurement));
    const used = (await sampleTree(memory.rootPid)).cpuSeconds - before;
    const threadsAfter = await benchThreads(memory.rootPid, null);
    addByThread(threadCpu, benchCpuByThread(threadsBefore, threadsAfter));
    addByThread(threadFaults, benchFaultsByThread(threadsBefore, threadsAfter));
    bytesPerRun = bytes;
    wall.push(bytes / 1e6 / seconds);
    cost.push((used * 1000) / (bytes / 1e6));
  }
  const cpuMsPerMB = median(cost);
  return {
    wallMBps: Math.round(median(wall)),
    cpuMsPerMB: Number(cpuMsPerMB.toFixed(2)),
    perCoreMBps: Math.round(1000 / cpuMsPerMB),
    cpuMsPerMBByThread: perMBByThread(threadCpu, bytesPerRun, 1000),
    faultedMiBPerMBByThread: perMBByThread(threadFaults, bytesPerRun),
  };
}

/**
 * The limits, measured before the phases and again after them (`first` false: without the small
 * files' digests and the call sizes, which only describe the machine). limitsAcrossTheRun joins them.
 */
async function measureLimits(page: Page, memory: PeakMemory, readPath: string, first: boolean): Promise<Limits> {
  const callSizes = first && flag('--record-sizes') ? [64, 128, 256, 512, 1024, 4096].map((k) => k * 1024) : [];
  const aesByCallSize = [];
  for (const callBytes of callSizes) {
    aesByCallSize.push({
      callBytes,
      encrypt: await measureLimit(page, memory, { kind: 'aes', mode: 'encrypt', callBytes, totalBytes: SIZES.aesLimit / 8 }),
      decrypt: await measureLimit(page, memory, { kind: 'aes', mode: 'decrypt', callBytes, totalBytes: SIZES.aesLimit / 8 }),
    });
  }
  const aesEncrypt = await measureLimit(page, memory, { kind: 'aes', mode: 'encrypt', callBytes: RECORD_SIZE, totalBytes: SIZES.aesLimit });
  const aesDecrypt = await measureLimit(page, memory, { kind: 'aes', mode: 'decrypt', callBytes: RECORD_SIZE, totalBytes: SIZES.aesLimit });
  const sha256 = await measureLimit(page, memory, { kind: 'sha', updateBytes: RECORD_SIZE, totalBytes: SIZES.shaLimit });
  await page.setInputFiles('#files', readPath);
  warmPageCache([readPath]);
  const read = await measureLimit(page, memory, { kind: 'read' });
  const smallFileDigest = first ? await page.evaluate(() => window.cryptoHarness.smallFileDigests()) : [];
  return { recordSize: RECORD_SIZE, aesEncrypt, aesDecrypt, sha256, read, smallFileDigest, aesByCallSize };
}

async function main(): Promise<void> {
  const inputs = await prepareInputs();
  const server = await serveDirectory(await buildHarness());
  // Chromium started as the upload benchmark starts it (its own process, our flags, no Playwright
  // launch defaults), with Playwright attached over CDP to drive the harness page.
  const browser = await BenchBrowser.launch();
  try {
    await browser.drive(server.url, (page) => runPhases(page, new PeakMemory(browser.pid), inputs));
  } finally {
    await browser.close();
    await server.close();
  }
}

async function runPhases(page: Page, memory: PeakMemory, inputs: Awaited<ReturnType<typeof prepareInputs>>): Promise<void> {
  const version = page.context().browser()?.version() ?? 'unknown';
  {
    await page.waitForFunction(() => typeof window.cryptoHarness !== 'undefined');
    const { poolSize } = await page.evaluate(() => window.cryptoHarness.ready());
    const loadBefore = loadavg();
    const freshMemory = freshMemoryMsPerMiB();
    // Read once: the line printed and the JSON say the state the run was made in.
    const reporting = pageReporting();
    console.log(`load average before the run: ${loadBefore.map((l) => l.toFixed(2)).join(' ')} (other work on this machine lowers every throughput figure)`);
    console.log(`Chromium ${version}, ${cpus().length} cores, pool of ${poolSize} workers, record size ${RECORD_SIZE / 1024} KiB, ${REPEAT} runs per phase; ${describeFreshMemory(freshMemory)}; ${reporting}\n`);

    const limitsBefore = await measureLimits(page, memory, inputs.big, true);
    printLimits(limitsBefore, 'Limits before the phases, measured in a worker of the same browser in this run');

    // Each phase's limit is set once both measurements of the limits are in (phaseAgainst below).
    const oneFileLimit = (l: Limits) => l.sha256.perCoreMBps;
    const manyFilesLimit = (l: Limits) => poolSize / (1 / l.sha256.perCoreMBps + 1 / l.aesEncrypt.perCoreMBps);
    const measured: { phase: MeasuredPhase; limitOf: (l: Limits) => number }[] = [];
    const encrypt = async (name: string, paths: string[], limitOf: (l: Limits) => number, options: EncryptRunOptions = {}) => {
      await page.setInputFiles('#files', paths);
      warmPageCache(paths);
      const phase = await measure(page, memory, name, 'encrypt', async () => {
        const result = ok((await page.evaluate((o) => window.cryptoHarness.encryptFiles(o), options)) as EncryptRunResult | HarnessError);
        return { plainBytes: result.plainBytes, seconds: result.seconds };
      });
      measured.push({ phase, limitOf });
    };
    await encrypt(`hash+encrypt one ${sizeName(SIZES.big)} file`, [inputs.big], oneFileLimit);
    await encrypt('  the same, SHA-256 on the same worker', [inputs.big], oneFileLimit, { hashPlacement: 'same-worker' });
    await encrypt(`hash+encrypt eight ${sizeName(SIZES.many)} files at once`, inputs.many, manyFilesLimit);
    // The upload engine never streams eight at once: LARGE_FILES_AT_ONCE at a time, the rest queued,
    // each hashed where the engine asks the pool to hash it.
    await encrypt(`  the same, ${LARGE_FILES_AT_ONCE} at a time as the upload engine streams them`, inputs.many, manyFilesLimit, {
      atOnce: LARGE_FILES_AT_ONCE,
      hashPlacement: hashPlacementFor(LARGE_FILES_AT_ONCE, poolSize),
    });
    await page.setInputFiles('#files', inputs.sealed);
    warmPageCache([inputs.sealed]);
    const keyAndIv = [inputs.key.toString('base64'), inputs.iv.toString('base64')] as const;
    measured.push({
      phase: await measure(page, memory, `decrypt one ${sizeName(SIZES.big)} file`, 'decrypt', async () => {
        const result = ok(
          (await page.evaluate(([k, v]) => window.cryptoHarness.decryptFile(k, v, { hashPlaintext: false }), keyAndIv)) as DecryptRunResult | HarnessError,
        );
        return { plainBytes: result.plainBytes, seconds: result.seconds };
      }),
      limitOf: (l) => l.aesDecrypt.perCoreMBps,
    });
    if (inputs.huge) await encrypt('hash+encrypt one 4 GiB file', [inputs.huge], oneFileLimit);

    console.log('');
    const limitsAfter = await measureLimits(page, memory, inputs.big, false);
    printLimits(limitsAfter, 'Limits after the phases, measured the same way');
    const limits = limitsAcrossTheRun(limitsBefore, limitsAfter);
    printLimits({ ...limits, smallFileDigest: [], aesByCallSize: [] }, 'Limits across the run: the mean of the two measurements, which every ratio below is taken against');
    const phases = measured.map(({ phase, limitOf }) => phaseAgainst(phase, limitOf(limits)));

    const analysis = analyse(phases, limits, cpus().length);
    printPhases(phases, analysis, cpus().length);
    const memoryGrowth = memoryCheck(phases);
    const manyFiles = analysis.find((a) => isManyFilesPhase(a.name));
    const asTheEngine = analysis.find((a) => a.name.includes('as the upload engine streams them'));
    const targets = manyFiles
      ? {
          manyFilesCapacityRatio: manyFiles.capacityRatio,
          manyFilesCapacityTarget: MANY_FILES_CAPACITY_TARGET,
          ...(asTheEngine ? { manyFilesAsTheEngineCapacityRatio: asTheEngine.capacityRatio } : {}),
        }
      : undefined;
    if (manyFiles) console.log(`\neight files at once: capacityRatio ${manyFiles.capacityRatio} (target >= ${MANY_FILES_CAPACITY_TARGET}), overhead ${manyFiles.overheadPercent}% over the parts' CPU`);
    if (asTheEngine) console.log(`eight files, ${LARGE_FILES_AT_ONCE} at a time as the upload engine streams them: capacityRatio ${asTheEngine.capacityRatio}, overhead ${asTheEngine.overheadPercent}% over the parts' CPU`);
    const report = {
      date: new Date().toISOString(),
      loadAverage: { before: loadBefore, after: loadavg() },
      freshMemoryMsPerMiB: freshMemory,
      pageReporting: reporting,
      chromium: version,
      cores: cpus().length,
      poolSize,
      recordSize: RECORD_SIZE,
      repeat: REPEAT,
      smoke: SMOKE,
      limits,
      limitsBeforePhases: limitsBefore,
      limitsAfterPhases: limitsAfter,
      phases,
      analysis,
      targets,
      memoryGrowth,
    };
    await mkdir(root('bench-results'), { recursive: true });
    const out = root(`bench-results/crypto-${report.date.replace(/[:.]/g, '-')}.json`);
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwritten ${out}`);
  }
}

/**
 * Whether memory grows with file size: peak RSS of the 4 GiB run against the 1 GiB run (the
 * target). Also printed: each run's rise above the idle RSS just before it, since the phases share
 * one browser whose idle RSS drifts by a few hundred MiB from phase to phase.
 */
function memoryCheck(phases: readonly PhaseResult[]) {
  const one = phases.find((p) => p.name === `hash+encrypt one ${sizeName(SIZES.big)} file`);
  const four = phases.find((p) => p.name === 'hash+encrypt one 4 GiB file');
  if (!one || !four) return undefined;
  const differenceMiB = four.peakRssMiB - one.peakRssMiB;
  const oneRise = one.peakRssMiB - one.idleRssMiB;
  const fourRise = four.peakRssMiB - four.idleRssMiB;
  const withinTarget = Math.abs(differenceMiB) <= 64;
  console.log(
    `\npeak browser RSS, 4 GiB file vs 1 GiB file: ${four.peakRssMiB} vs ${one.peakRssMiB} MiB, ${differenceMiB >= 0 ? '+' : ''}${differenceMiB} MiB (target: within 64 MiB) ${withinTarget ? 'OK' : 'MISSED'}` +
      `; rise above idle: +${fourRise} vs +${oneRise} MiB`,
  );
  return { oneGiBPeakRssMiB: one.peakRssMiB, fourGiBPeakRssMiB: four.peakRssMiB, differenceMiB, oneGiBRiseMiB: oneRise, fourGiBRiseMiB: fourRise, withinTarget };
}

await main();
