/**
 * npm run bench:download [-- --size=5g] [-- --repeat N] [-- --phases=file,aes-ceiling,write-ceiling,direct,zip] [-- --smoke]
 * npm run bench:download -- --target https://host --link 'TOKEN#KEYS' [--force]   (QA mode)
 *
 * Decrypt-to-disk throughput in headless Chromium: the real app, the real service worker, the
 * browser's download manager writing to disk (and the direct-to-disk path where the app offers it).
 * Local runs start a server of their own (download-local.ts); QA mode measures a deployment through
 * a download link's page (download-target.ts). Prints, then writes as JSON under bench-results/:
 *   - the raw decrypt limit of the same browser in the same run (AES-256-GCM, 256 KiB records);
 *   - the transport ceiling of the same run (`ceilingMBps`): locally a bare service worker passing
 *     the ciphertext to disk; in QA mode the page reading the ciphertext and discarding it;
 *   - locally, the same pass-through with one AES-GCM pass in the bare worker (`aesCeilingMBps`):
 *     what decrypting costs on that path without the app;
 *   - per phase (one 1 GiB file, the ZIP of a 2 GiB folder, direct to disk; with --size=5g also
 *     5 GiB and the ZIP64 of a 5 GiB folder): MB/s from the click to the file complete, ratios to
 *     both references (`...Ratio`), the browser's CPU use, idle and peak RSS and PSS of its tree;
 *   - `transport`: the ratios the issue's targets are about, with the targets;
 *   - with --size=5g the memory check: the 5 GiB peak PSS within 128 MiB of the 1 GiB one.
 * Every saved file is checked: locally by SHA-256 against the plaintext; in QA mode as far as
 * possible without it (download-target.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/environment.mjs';
import { HIDE_PICKERS } from './download-direct.ts';
import { runLocal } from './download-local.ts';
import { describeFreshMemory, freshMemoryMsPerMiB } from './fresh-memory.ts';
import { pageReporting } from './machine.ts';
import { directCpuFigures, PHASE_KINDS, ratio, roundRatios, type BenchContext, type DecryptLimits, type MeasuredRun, type Phase, type PhaseKind } from './download-phases.ts';
import { runTarget } from './download-target.ts';
import { findBrowserPid, PeakMemory, printThreads } from './process-tree.ts';
import { parseQaTarget, QA_TARGET_HELP, QaTargetError } from './qa-target.ts';

const HELP = `npm run bench:download [-- options]

  --size=5g        also a 5 GiB file and the ZIP of a 5 GiB folder (ZIP64), and the memory check
  --repeat N       downloads per phase (default 3; the median is reported)
  --smoke          every phase once at a few MiB, the saved bytes checked as always, no phase
                   skipped (npm run bench:smoke); the figures mean nothing
  --phases=LIST    local runs: only these of file,aes-ceiling,write-ceiling,direct,zip (default all); the
                   service-worker ceiling always runs, every ratio is taken against it
  BENCH_PORT=N     port of the local server (default: a free one)

${QA_TARGET_HELP}
In QA mode the largest file of the link is downloaded alone (and direct to disk where the page
offers it), and all its files as one ZIP when it has several, --repeat times each.`;

const argv = process.argv.slice(2);
const repeatAt = argv.indexOf('--repeat');
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** A command line this benchmark cannot run: printed as one line, exit status 2. */
class BenchUsageError extends Error {
  readonly code = 'BENCH_USAGE';
}

function selectedPhases(): ReadonlySet<PhaseKind> {
  const given = argv.find((arg) => arg.startsWith('--phases='))?.slice('--phases='.length);
  if (given === undefined) return new Set(PHASE_KINDS);
  const kinds = given.split(',').filter((kind) => kind !== '' && kind !== 'ceiling');
  const unknown = kinds.filter((kind) => !(PHASE_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0) throw new BenchUsageError(`--phases: unknown phase ${unknown.join(', ')} (known: ${PHASE_KINDS.join(', ')})`);
  return new Set(kinds as PhaseKind[]);
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

/** The measured app is the built one: rebuild when dist/ is older than its sources (as npm start does). */
function ensureBuild(): void {
  const built = join(root('dist'), 'index.html');
  const inputs = ['src', 'workers', 'crypto', 'contract', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];
  if (existsSync(built) && inputs.every((input) => newestMtime(root(input)) <= statSync(built).mtimeMs)) return;
  console.log('building the app (dist/ is older than its sources)...');
  const result = spawnSync(process.execPath, [root('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root(''), stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

/** "; by round 0.87, 0.64, 0.72" for a ratio measured over more than one round, else nothing. */
function byRound(ratios: unknown): string {
  return Array.isArray(ratios) && ratios.length > 1 ? `; by round ${ratios.join(', ')}` : '';
}

/** The figures the issue's targets are about, each a ratio within this run. */
function transportSummary(run: MeasuredRun, huge: boolean) {
  const find = (kind: Phase['kind'], bytesAtLeast = 0, bytesBelow = Infinity) => run.phases.find((p) => p.kind === kind && p.plainBytes >= bytesAtLeast && p.plainBytes < bytesBelow);
  const GiB = 1024 ** 3;
  const file = find('file', 0, 2 * GiB);
  const zip = find('zip', 0, 4 * GiB);
  const direct = find('direct', 0, 2 * GiB);
  const writeCeiling = find('write-ceiling');
  const aesCeiling = find('aes-ceiling');
  const decrypt = run.limits.sequentialDecryptMBps;
  const { ceilingMBps } = run.ceiling;
  const summary: Record<string, unknown> = {
    decryptMBps: Math.round(decrypt),
    ...run.ceiling,
    fileMBps: file?.medianMBps ?? null,
    zipMBps: zip?.medianMBps ?? null,
    directMBps: direct?.medianMBps ?? null,
    fileToDecryptRatio: file ? ratio(file.medianMBps, decrypt) : null,
    fileToCeilingRatio: file ? ratio(file.medianMBps, ceilingMBps) : null,
    zipToCeilingRatio: zip ? ratio(zip.medianMBps, ceilingMBps) : null,
    zipToFileRatio: zip && file ? ratio(zip.medianMBps, file.medianMBps) : null,
    directToDecryptRatio: direct ? ratio(direct.medianMBps, decrypt) : null,
    directToCeilingRatio: direct ? ratio(direct.medianMBps, ceilingMBps) : null,
    // The writable alone in the same run (download-direct.ts): what the direct path can reach here.
    directWriteCeilingMBps: writeCeiling?.medianMBps ?? null,
    directWriteCeilingToDecryptRatio: writeCeiling ? ratio(writeCeiling.medianMBps, decrypt) : null,
    directToWriteCeilingRatio: direct && writeCeiling ? ratio(direct.medianMBps, writeCeiling.medianMBps) : null,
    directToWriteCeilingByRound: direct && writeCeiling ? roundRatios(direct, writeCeiling) : null,
    // Whether the direct save waits (below its CPU bound) or works (its bound below the writable's rate).
    ...(direct && writeCeiling ? directCpuFigures(direct, writeCeiling, cpus().length) : null),
    // The ceiling with one AES-GCM pass in the same run (download-passthrough-sw.ts): what decrypting
    // costs on the service-worker path without the app, and how close the app's file and ZIP come to it.
    aesCeilingMBps: aesCeiling?.medianMBps ?? null,
    aesCeilingToCeilingRatio: aesCeiling ? ratio(aesCeiling.medianMBps, ceilingMBps) : null,
    fileToAesCeilingRatio: file && aesCeiling ? ratio(file.medianMBps, aesCeiling.medianMBps) : null,
    zipToAesCeilingRatio: zip && aesCeiling ? ratio(zip.medianMBps, aesCeiling.medianMBps) : null,
    targets: { zipToCeilingRatio: 0.9, directToDecryptRatio: 0.8, directToWriteCeilingRatio: 0.85 },
  };
  if (huge) {
    const zip5 = find('zip', 4 * GiB);
    summary.zip5GiBToCeilingRatio = zip5 ? ratio(zip5.medianMBps, ceilingMBps) : null;
  }
  return summary;
}

/** 5 GiB within 128 MiB of 1 GiB, by peak PSS (RSS counts pages shared between Chromium's processes once per process). */
function memoryCheck(phases: Phase[]) {
  const GiB = 1024 ** 3;
  const pairs: Record<string, unknown> = {};
  for (const kind of ['file', 'direct'] as const) {
    const one = phases.find((p) => p.kind === kind && p.plainBytes === GiB);
    const five = phases.find((p) => p.kind === kind && p.plainBytes === 5 * GiB);
    if (!one || !five) continue;
    const differenceMiB = five.browserPeakPssMiB - one.browserPeakPssMiB;
    pairs[kind] = { oneGiBPeakPssMiB: one.browserPeakPssMiB, fiveGiBPeakPssMiB: five.browserPeakPssMiB, differenceMiB, oneGiBPeakRssMiB: one.browserPeakRssMiB, fiveGiBPeakRssMiB: five.browserPeakRssMiB, withinTarget: differenceMiB <= 128 };
    console.log(`Memory (${kind}): 5 GiB peak PSS ${five.browserPeakPssMiB} MiB vs 1 GiB ${one.browserPeakPssMiB} MiB: ${differenceMiB >= 0 ? '+' : ''}${differenceMiB} MiB (target: within 128 MiB) ${differenceMiB <= 128 ? 'OK' : 'OVER'}`);
  }
  return pairs;
}

async function main(): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    return;
  }
  const target = parseQaTarget(argv);
  const huge = argv.includes('--size=5g');
  const smoke = argv.includes('--smoke');
  if (smoke && huge) throw new BenchUsageError('--smoke and --size=5g exclude each other');
  const repeat = repeatAt >= 0 ? Math.max(1, Number(argv[repeatAt + 1])) : smoke ? 1 : 3;
  // Per BENCH_PORT: benchmarks started at the same time on other ports keep out of each other's directories.
  const instance = process.env.BENCH_PORT ?? 'default';
  const downloadsDir = root(`.tmp/bench-download-out-${instance}`);
  const profileDir = root(`.tmp/bench-download-profile-${instance}`);
  const loadBefore = loadavg().map((value) => Number(value.toFixed(2)));
  // Before the browser starts, so the probe does not compete with it.
  const freshMemory = freshMemoryMsPerMiB();
  // Read once: the line printed and the JSON say the state the run was made in.
  const reporting = pageReporting();
  let context: BrowserContext | undefined;
  let chromiumVersion = '';
  const bench: BenchContext = {
    huge,
    smoke,
    phases: selectedPhases(),
    // The benchmark serves its own copy of dist/ (plus the pass-through worker): other builds cannot swap it mid-run.
    paths: { dataDir: root(`.tmp/bench-download-data-${instance}`), staticDir: root(`.tmp/bench-download-static-${instance}`), dist: root('dist') },
    async openBrowser(serverPid) {
      rmSync(downloadsDir, { recursive: true, force: true });
      mkdirSync(downloadsDir, { recursive: true });
      rmSync(profileDir, { recursive: true, force: true });
      // A persistent (on-disk) profile, as a user's: in Playwright's default off-the-record context the
      // origin-private file system lives in memory, and the direct phase's 1 GiB would show up as
      // browser memory (measured: peak PSS +1 GiB).
      context = await chromium.launchPersistentContext(profileDir, {
        executablePath: CHROMIUM_PATH,
        args: CHROMIUM_ARGS,
        ignoreDefaultArgs: ['--disable-dev-shm-usage'],
        downloadsPath: downloadsDir,
        acceptDownloads: true,
      });
      await context.addInitScript(HIDE_PICKERS);
      const memory = new PeakMemory(await findBrowserPid(), serverPid ?? null);
      const page = context.pages()[0] ?? (await context.newPage());
      chromiumVersion = context.browser()?.version() ?? ((await page.evaluate('navigator.userAgent')) as string);
      return { page, memory, repeat };
    },
    async closeBrowser() {
      await context?.close();
      rmSync(downloadsDir, { recursive: true, force: true });
      rmSync(profileDir, { recursive: true, force: true });
    },
    printLimits(limits) {
      console.log(`\nChromium ${chromiumVersion}, ${cpus().length} cores, ${repeat} runs per phase (median), load ${loadavg()[0]!.toFixed(1)}; ${describeFreshMemory(freshMemory)}; ${reporting}`);
      console.log(`Raw decrypt limit in this browser (AES-256-GCM, 256 KiB records): ${limits.sequentialDecryptMBps.toFixed(0)} MB/s one call at a time, ${limits.parallelDecryptMBps.toFixed(0)} MB/s with 4 in flight\n`);
    },
  };
  if (!target) ensureBuild();
  const measured = target ? await runTarget(bench, target) : await runLocal(bench);

  console.log('\nDecrypt to disk (click to complete file), median; ratio to the raw decrypt limit and to the ceiling; browser process tree:');
  for (const p of measured.phases) {
    console.log(
      `  ${p.name.padEnd(40)} ${String(p.medianMBps).padStart(5)} MB/s  decrypt ${p.toDecryptRatio.toFixed(2)}  ceiling ${p.toCeilingRatio?.toFixed(2) ?? '-'}  ${p.browserCores.toFixed(2)} cores${p.serverCores === null ? '' : ` (server ${p.serverCores.toFixed(2)})`}  PSS ${p.browserPeakPssMiB} MiB (idle ${p.browserIdlePssMiB}), RSS ${p.browserPeakRssMiB} (idle ${p.browserIdleRssMiB})`,
    );
    printThreads(p.cpuSecondsPerRunByThread);
    printThreads(p.faultedMiBPerRunByThread, 6, 'run', 'faultedMiB');
  }
  const { ceilingBrowserCores, ceilingServerCores, ceilingCpuSecondsPerRunByThread, ceilingFaultedMiBPerRunByThread } = measured.ceiling;
  if (ceilingBrowserCores !== undefined) {
    console.log(`  ${'ceiling'.padEnd(40)} ${String(measured.ceiling.ceilingMBps).padStart(5)} MB/s  ${ceilingBrowserCores.toFixed(2)} cores${ceilingServerCores == null ? '' : ` (server ${ceilingServerCores.toFixed(2)})`}`);
    printThreads(ceilingCpuSecondsPerRunByThread ?? {});
    printThreads(ceilingFaultedMiBPerRunByThread ?? {}, 6, 'run', 'faultedMiB');
  }
  const transport = transportSummary(measured, huge);
  console.log(
    `\nCeiling ${measured.ceiling.ceilingMBps} MB/s (${measured.ceiling.ceilingKind}); ZIP / ceiling = ${transport.zipToCeilingRatio ?? '-'} (target >= 0.9); ` +
      `direct / decrypt = ${transport.directToDecryptRatio ?? '-'} (target >= 0.8); file / ceiling = ${transport.fileToCeilingRatio ?? '-'}` +
      `; writable alone ${transport.directWriteCeilingMBps ?? '-'} MB/s, direct / writable = ${transport.directToWriteCeilingRatio ?? '-'} (target >= 0.85${byRound(transport.directToWriteCeilingByRound)})` +
      `; with one AES-GCM pass ${transport.aesCeilingMBps ?? '-'} MB/s (${transport.aesCeilingToCeilingRatio ?? '-'} of the ceiling), file / it = ${transport.fileToAesCeilingRatio ?? '-'}, ZIP / it = ${transport.zipToAesCeilingRatio ?? '-'}`,
  );
  if (typeof transport.directCpuBoundMBps === 'number') {
    console.log(
      `CPU per GiB (browser + server): direct ${String(transport.directCoreSecondsPerGiB)} core-s, writable alone ${String(transport.writeCeilingCoreSecondsPerGiB)} core-s; ` +
        `at that cost ${cpus().length} cores allow direct ${transport.directCpuBoundMBps} MB/s = ${String(transport.directCpuBoundToWriteCeilingRatio)} of the writable alone (the most direct / writable can be here); ` +
        `direct / its CPU bound = ${String(transport.directToCpuBoundRatio)} (the share of the cores the direct save keeps busy)`,
    );
  }
  const memory = huge ? memoryCheck(measured.phases) : undefined;
  const report = {
    date: new Date().toISOString(),
    mode: target ? 'target' : 'local',
    smoke,
    ...(target ? { target: target.origin } : {}),
    chromium: chromiumVersion,
    cores: cpus().length,
    repeat,
    loadAverage: { before: loadBefore, after: loadavg().map((value) => Number(value.toFixed(2))) },
    freshMemoryMsPerMiB: freshMemory,
    pageReporting: reporting,
    limits: measured.limits,
    transport,
    phases: measured.phases,
    ...(memory ? { memoryCheck: memory } : {}),
  };
  mkdirSync(root('bench-results'), { recursive: true });
  const out = root(`bench-results/download-${report.date.replace(/[:.]/g, '-')}.json`);
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten ${out}`);
}

main().catch((error: unknown) => {
  if (error instanceof QaTargetError || error instanceof BenchUsageError) console.error(`bench:download: ${error.message}`);
  else console.error(error);
  process.exitCode = error instanceof BenchUsageError ? 2 : 1;
});
