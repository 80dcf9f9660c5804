// One measured phase of `npm run bench:upload`, against a server started here (local mode) or an
// existing deployment (QA mode, bench/upload-target.ts): the "site" says where a run uploads to and
// how its end is known. What stays the same: a browser of its own per phase (what an earlier phase
// left in memory does not count), the automation attached only to open the page, pick and press
// (bench-browser.ts), the browser's memory (RSS and PSS) sampled while idle and while uploading.
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { build } from 'esbuild';
import { BenchBrowser } from './bench-browser.ts';
import { cpuBoundOf, type CpuBound } from './cpu-bound.ts';
import { addByThread, benchCpuByThread, benchFaultsByThread, benchThreads, largestThreads, machineCpu, machineCpuBetween, PeakMemory, printThreads, sampleTree } from './process-tree.ts';
import { SPOOL_STALLED_MARK } from '../workers/encryption-session.ts';
import { median } from './median.ts';

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => Math.round(bytes / MiB);
/** Far longer than any run takes (5 GiB at 20 MB/s is ~4.5 min); a run that never ends fails the benchmark instead of hanging it. */
export const RUN_DEADLINE_MS = 15 * 60_000;

export interface PhaseRun {
  seconds: number;
  mbps: number;
  filesPerSecond: number;
  /** Chunks the upload spool could not take within its time limit (sent from memory instead). */
  spoolStalls: number;
  /** The browser's PSS peak during this run over its idle sample just before it. */
  browserPssRiseMiB: number;
}

export interface PhaseResult {
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
  /**
   * The largest rise of the browser's PSS within one run (its peak over the idle sample just before
   * it). Not browserPeakPssMiB - browserIdlePssMiB: those are maxima over all runs, and when an
   * earlier run's garbage is still there at the next run's idle sample, that difference hid the
   * rise (a folder run read +0 MiB with +130 in its first run).
   */
  browserPssRiseMiB: number;
  /** Only where the server runs on this machine (local mode). */
  serverPeakRssMiB?: number;
  serverIdleRssMiB?: number;
  /** Cores kept busy on average during the runs (CPU seconds / wall seconds). */
  browserCores: number;
  serverCores?: number;
  /**
   * Cores busy on the whole machine during the runs, apart from this benchmark process: the
   * browser and the server, and what the kernel did for them outside their threads (interrupts,
   * loopback TCP, write-back). On a quiet machine the difference from browser + server is the
   * kernel's share of the run.
   */
  machineCores: number;
  /** Cores a hypervisor gave to other machines during the runs (steal): neither busy nor idle here. */
  stolenCores: number;
  /**
   * Cores this benchmark's own process used during the runs (its memory and CPU samplers, its
   * polls of the server): not the run's work, but not free for it either on a small machine.
   */
  benchCores: number;
  /** CPU seconds per run (browser tree and, in local mode, server), the mean over the runs. */
  cpuSecondsPerRun: number;
  /**
   * CPU seconds per run by thread ("browser: DedicatedWorker thread", "server: node", ...),
   * the largest first, those under 0.05 s left out: where a run's CPU went.
   */
  cpuSecondsPerRunByThread: Record<string, number>;
  /** MiB of memory faulted in per run, by the same names (process-tree.ts, ThreadCpu.faultedMiB). */
  faultedMiBPerRunByThread: Record<string, number>;
}

/** How a run's end is known: the server's records (local mode only), or what the page reports. */
export type RunEnd = 'records' | 'page';

/** One run's link on the site. */
export interface SiteRun {
  readonly linkToken: string;
  /** Seconds from `startedAt` (Date.now() when the button was pressed) to the run's end. */
  awaitEnd(end: RunEnd, files: number, startedAt: number, browser: BenchBrowser): Promise<number>;
  /** After the run: what it stored is removed where the benchmark owns the folder. */
  finish(): Promise<void>;
}

export interface UploadSite {
  readonly origin: string;
  /** The server's process id when it runs here (its memory and CPU are measured), else null. */
  readonly serverPid: number | null;
  openRun(phaseName: string, run: number): Promise<SiteRun>;
}

export interface PhaseSpec {
  name: string;
  files: number;
  bytes: number;
  /** Opens nothing: the page is open on the run's link; picks the input (automation attached). */
  prepare: (page: Page, linkToken: string) => Promise<void>;
  /** Presses the button (or starts the page script); the automation disconnects right after. */
  start: (page: Page, linkToken: string) => Promise<void>;
  repeat: number;
  end: RunEnd;
}

/** The end a page reports in its title ("bench:done <ms>" / "bench:failed <why>"), read without attaching. */
export async function endReportedByPage(browser: BenchBrowser): Promise<number> {
  const outcome = await browser.waitForTitle('bench:', RUN_DEADLINE_MS);
  if (!outcome.startsWith('done ')) throw new Error(`the page's run failed: ${outcome}`);
  return Number(outcome.slice('done '.length)) / 1000;
}

/**
 * Makes the upload page report its run's end in its title, for endReportedByPage: when the page
 * shows the spec's success message the title becomes "bench:done <ms since now>", and when it shows
 * a failure (the spec's step-7 messages and failure toasts) "bench:failed <text>". Installed just
 * before the button is pressed; a MutationObserver, so nothing polls while the upload runs.
 */
export async function reportRunEndInTitle(page: Page): Promise<void> {
  await page.evaluate(() => {
    const startedAt = performance.now();
    const success = /Upload successful! All [\d,]+ processed files received\.|Upload processed: [\d,]+ files confirmed successful\./;
    const failure = /Upload API call failed: [^\n]*|Some files failed to upload\. Check file statuses\.|All files failed during client-side processing\.[^\n]*|Received empty response data from server\.|Upload processed, but server did not confirm file outcomes for this batch\./;
    const observer = new MutationObserver(() => {
      const text = document.body.innerText;
      const failed = failure.exec(text);
      if (failed) document.title = `bench:failed ${failed[0]}`;
      else if (success.test(text)) document.title = `bench:done ${Math.round(performance.now() - startedAt)}`;
      else return;
      observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

/** One phase, `spec.repeat` runs, in a browser of its own. */
export async function measurePhase(site: UploadSite, spec: PhaseSpec): Promise<PhaseResult> {
  const browser = await BenchBrowser.launch();
  try {
    return await runPhase(site, spec, browser);
  } finally {
    await browser.close();
  }
}

async function runPhase(site: UploadSite, spec: PhaseSpec, browser: BenchBrowser): Promise<PhaseResult> {
  const browserMemory = new PeakMemory(browser.pid);
  const serverMemory = site.serverPid === null ? null : new PeakMemory(site.serverPid);
  const cpuOf = async () => ({
    browser: (await sampleTree(browser.pid)).cpuSeconds,
    server: site.serverPid === null ? 0 : (await sampleTree(site.serverPid)).cpuSeconds,
  });
  const threadsOf = () => benchThreads(browser.pid, site.serverPid);
  /** CPU seconds by thread, summed over the runs. */
  const threadCpu = new Map<string, number>();
  const threadFaults = new Map<string, number>();
  const runs: PhaseRun[] = [];
  const peak = { browserRss: 0, browserPss: 0, serverRss: 0, browserIdleRss: 0, browserIdlePss: 0, serverIdleRss: 0 };
  let browserCpu = 0;
  let serverCpu = 0;
  let machineBusy = 0;
  let machineStolen = 0;
  let benchBusy = 0;
  let wall = 0;
  for (let i = 0; i < spec.repeat; i++) {
    const run = await site.openRun(spec.name, i + 1);
    await browser.drive(`${site.origin}/upload/${run.linkToken}`, (page) => spec.prepare(page, run.linkToken));
    await sleep(1000);
    browserMemory.start();
    serverMemory?.start();
    const idleBrowser = await browserMemory.stop();
    const idleServer = await serverMemory?.stop();
    peak.browserIdleRss = Math.max(peak.browserIdleRss, idleBrowser.peakRssBytes);
    peak.browserIdlePss = Math.max(peak.browserIdlePss, idleBrowser.peakPssBytes);
    peak.serverIdleRss = Math.max(peak.serverIdleRss, idleServer?.peakRssBytes ?? 0);
    browserMemory.start();
    serverMemory?.start();
    const cpuBefore = await cpuOf();
    const threadsBefore = await threadsOf();
    const machineBefore = await machineCpu();
    let startedAt = 0;
    await browser.drive(null, async (page) => {
      if (spec.end === 'page') await reportRunEndInTitleUnlessScripted(page);
      startedAt = Date.now();
      await spec.start(page, run.linkToken);
    });
    const seconds = await run.awaitEnd(spec.end, spec.files, startedAt, browser);
    // Chunks the upload spool could not take in time (each cost up to SPOOL_CALL_LIMIT_MS).
    const stalledCalls = await browser.drive(null, (page) =>
      page.evaluate((mark) => performance.getEntriesByName(mark).map((entry) => String((entry as PerformanceMark).detail?.call ?? '?')), SPOOL_STALLED_MARK),
    );
    const spoolStalls = stalledCalls.length;
    const machineSpent = machineCpuBetween(machineBefore, await machineCpu());
    const cpuAfter = await cpuOf();
    machineBusy += machineSpent.busySeconds;
    machineStolen += machineSpent.stealSeconds;
    benchBusy += machineSpent.benchSeconds;
    const threadsAfter = await threadsOf();
    addByThread(threadCpu, benchCpuByThread(threadsBefore, threadsAfter));
    addByThread(threadFaults, benchFaultsByThread(threadsBefore, threadsAfter));
    browserCpu += cpuAfter.browser - cpuBefore.browser;
    serverCpu += cpuAfter.server - cpuBefore.server;
    wall += (Date.now() - startedAt) / 1000;
    const browserPeak = await browserMemory.stop();
    const serverPeak = await serverMemory?.stop();
    peak.browserRss = Math.max(peak.browserRss, browserPeak.peakRssBytes);
    peak.browserPss = Math.max(peak.browserPss, browserPeak.peakPssBytes);
    peak.serverRss = Math.max(peak.serverRss, serverPeak?.peakRssBytes ?? 0);
    runs.push({ seconds, mbps: spec.bytes / 1e6 / seconds, filesPerSecond: spec.files / seconds, spoolStalls, browserPssRiseMiB: mib(browserPeak.peakPssBytes) - mib(idleBrowser.peakPssBytes) });
    process.stdout.write(`  ${spec.name} run ${i + 1}: ${seconds.toFixed(2)} s, ${(spec.bytes / 1e6 / seconds).toFixed(0)} MB/s, ${(spec.files / seconds).toFixed(0)} files/s${spoolStalls > 0 ? `, ${spoolStalls} spool stall(s): ${stalledCalls.join(', ')}` : ''}\n`);
    await run.finish();
  }
  return {
    name: spec.name,
    files: spec.files,
    bytes: spec.bytes,
    runs: runs.map((r) => ({ seconds: Number(r.seconds.toFixed(3)), mbps: Math.round(r.mbps), filesPerSecond: Math.round(r.filesPerSecond), spoolStalls: r.spoolStalls, browserPssRiseMiB: r.browserPssRiseMiB })),
    medianMBps: Math.round(median(runs.map((r) => r.mbps))),
    medianFilesPerSecond: Math.round(median(runs.map((r) => r.filesPerSecond))),
    browserPeakRssMiB: mib(peak.browserRss),
    browserPeakPssMiB: mib(peak.browserPss),
    browserIdleRssMiB: mib(peak.browserIdleRss),
    browserIdlePssMiB: mib(peak.browserIdlePss),
    browserPssRiseMiB: Math.max(0, ...runs.map((r) => r.browserPssRiseMiB)),
    browserCores: Number((browserCpu / wall).toFixed(2)),
    machineCores: Number((machineBusy / wall).toFixed(2)),
    stolenCores: Number((machineStolen / wall).toFixed(2)),
    benchCores: Number((benchBusy / wall).toFixed(2)),
    cpuSecondsPerRun: Number(((browserCpu + serverCpu) / spec.repeat).toFixed(2)),
    cpuSecondsPerRunByThread: largestThreads([...threadCpu].map(([name, seconds]) => [name, seconds / spec.repeat] as const)),
    faultedMiBPerRunByThread: largestThreads([...threadFaults].map(([name, faulted]) => [name, faulted / spec.repeat] as const)),
    ...(site.serverPid === null
      ? {}
      : { serverPeakRssMiB: mib(peak.serverRss), serverIdleRssMiB: mib(peak.serverIdleRss), serverCores: Number((serverCpu / wall).toFixed(2)) }),
  };
}

/**
 * What a phase costs in CPU (browser tree + server, local mode only) per GiB, and the rate this
 * machine's `cores` would allow at that cost if they were all busy with it: where a phase runs
 * near its bound, it is CPU-bound, and only less work per byte (not more overlap) makes it faster.
 */
export function cpuCost(phase: PhaseResult, cores: number): CpuBound | null {
  if (phase.serverCores === undefined) return null;
  return cpuBoundOf(phase.browserCores + phase.serverCores, phase.medianMBps, cores);
}

/**
 * The same bound counted on the whole machine (`machineCores`, so the kernel's work for the run is
 * part of its cost) over the cores the hypervisor left to it (`cores` - `stolenCores`): the
 * share of the cores this machine really had that the run kept busy.
 */
export function machineCpuCost(phase: PhaseResult, cores: number): CpuBound | null {
  if (phase.serverCores === undefined) return null;
  return cpuBoundOf(phase.machineCores, phase.medianMBps, Math.max(0, cores - phase.stolenCores));
}

/** The reference scripts (bench/upload-plain-page.ts) set the title themselves; the app's page needs the observer. */
async function reportRunEndInTitleUnlessScripted(page: Page): Promise<void> {
  const scripted = await page.evaluate(() => typeof window.benchPlainUpload === 'function');
  if (!scripted) await reportRunEndInTitle(page);
}

export async function pickIntoPage(page: Page, testId: 'file-input' | 'folder-input', path: string, files: number): Promise<void> {
  await page.getByTestId('drop-area').waitFor();
  await page.getByTestId(testId).setInputFiles(path);
  // The page writes the count as its language does: "Upload 2,000 files" in English.
  const count = new Intl.NumberFormat('en').format(files);
  await page.getByRole('button', { name: `Upload ${count} file${files === 1 ? '' : 's'}` }).waitFor();
}

export const BENCH_INPUT_ID = 'bench-plain';

/** The references' page script (bench/upload-plain-page.ts) in the upload page, and the big file picked into an input of its own. */
export async function pickIntoBenchInput(page: Page, plainScript: string, path: string): Promise<void> {
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

export async function pressUpload(page: Page): Promise<void> {
  // Without waiting after the click for the page to answer again: a folder of small files keeps the
  // page's thread busy from the first group on, and under CI's load that answer once came after the
  // click's 30 s. The run's end is awaited by the phase itself.
  await page.getByRole('button', { name: /^Upload [\d,]+ files?$/ }).click({ noWaitAfter: true });
}

export function printPhase(p: PhaseResult): void {
  const rate = p.files > 1 ? `${p.medianFilesPerSecond} files/s (${p.medianMBps} MB/s)` : `${p.medianMBps} MB/s`;
  const server = p.serverPeakRssMiB === undefined ? '' : `   server peak RSS ${p.serverPeakRssMiB} MiB (idle ${p.serverIdleRssMiB})`;
  console.log(
    `  ${p.name.padEnd(48)} ${rate.padStart(22)}   browser peak RSS ${p.browserPeakRssMiB} MiB (idle ${p.browserIdleRssMiB}), PSS ${p.browserPeakPssMiB} MiB (idle ${p.browserIdlePssMiB})${server}   cores busy: browser ${p.browserCores}${p.serverCores === undefined ? '' : `, server ${p.serverCores}`}, whole machine ${p.machineCores} (stolen by the hypervisor ${p.stolenCores}; this benchmark's own sampling ${p.benchCores})`,
  );
  printThreads(p.cpuSecondsPerRunByThread);
  printThreads(p.faultedMiBPerRunByThread, 6, 'run', 'faultedMiB');
}

/** The references' page script (bench/upload-plain-page.ts), bundled for injection into the upload page. */
export async function plainUploadScript(): Promise<string> {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./upload-plain-page.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  return bundled.outputFiles[0]!.text;
}

export interface PhaseInputs {
  /** The 1 GiB file, the folder of small files, the 5 GiB file (with --size=5g). */
  big: string;
  /** The big file's size: 1 GiB unless given (16 MiB with --smoke). */
  bigBytes?: number;
  small: { dir: string; bytes: number; count: number };
  huge: string | null;
  plainScript: string;
  /** The discard route for the ceiling (null: the server has none; no ceiling phase). */
  discardUrl: string | null;
  repeat: number;
  /** How an upload run's end is known (the references always report it from the page). */
  end: RunEnd;
  label: (name: string) => string;
}

export interface UploadPhases {
  ceiling: PhaseSpec | null;
  plain: PhaseSpec;
  encrypted: PhaseSpec;
  many: PhaseSpec;
  huge: PhaseSpec | null;
}

/** The phases, the same in local and QA mode. */
export function uploadPhases(inputs: PhaseInputs): UploadPhases {
  const { big, small, huge, plainScript, discardUrl, repeat, end, label } = inputs;
  const GiB = 1024 * MiB;
  const bigBytes = inputs.bigBytes ?? GiB;
  const bigName = bigBytes >= GiB ? `${bigBytes / GiB} GiB` : `${bigBytes / MiB} MiB`;
  const discard = discardUrl;
  return {
    ceiling:
      discard === null
        ? null
        : {
            name: label('transport ceiling: same bytes, bare XHR to a discard route'),
            files: 1,
            bytes: bigBytes,
            prepare: (page) => pickIntoBenchInput(page, plainScript, big),
            start: (page) => page.evaluate(([url, id]) => window.benchCeilingUpload(url, id), [discard, BENCH_INPUT_ID] as const),
            repeat,
            end: 'page',
          },
    plain: {
      name: label(`plain upload (no encryption), same ${bigName}, tus`),
      files: 1,
      bytes: bigBytes,
      prepare: (page) => pickIntoBenchInput(page, plainScript, big),
      start: (page, linkToken) => page.evaluate(([token, id]) => window.benchPlainUpload(token, id), [linkToken, BENCH_INPUT_ID] as const),
      repeat,
      end,
    },
    encrypted: {
      name: label(`encrypted upload, one ${bigName} file`),
      files: 1,
      bytes: bigBytes,
      prepare: (page) => pickIntoPage(page, 'file-input', big, 1),
      start: pressUpload,
      repeat,
      end,
    },
    many: {
      name: label(`encrypted upload, folder of ${small.count} small files`),
      files: small.count,
      bytes: small.bytes,
      prepare: (page) => pickIntoPage(page, 'folder-input', small.dir, small.count),
      start: pressUpload,
      repeat,
      end,
    },
    huge:
      huge === null
        ? null
        : { name: label('encrypted upload, one 5 GiB file'), files: 1, bytes: 5 * GiB, prepare: (page) => pickIntoPage(page, 'file-input', huge, 1), start: pressUpload, repeat: 1, end },
  };
}
