/**
 * The measuring parts of bench:download, shared by the local run (download.ts with a server of its
 * own) and QA mode (download-target.ts against a deployment): one timed download from click to
 * complete file, a phase of REPEAT such downloads with the browser's memory and CPU, the raw
 * decrypt limit and the service-worker streaming ceiling of the same browser.
 */
import { rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { expect, type Download, type Page } from '@playwright/test';
import { PASSTHROUGH_SCOPE, PASSTHROUGH_SW_PATH } from './download-passthrough-sw.ts';
import { cpuBoundOf } from './cpu-bound.ts';
import { benchCpuByThread, benchFaultsByThread, benchThreads, type BenchThreads, largestThreads, type PeakMemory, sampleTree, ThreadWatch } from './process-tree.ts';
import { median } from './median.ts';

/** Phase kinds a local run may be limited to with --phases= (the ceiling always runs). */
export const PHASE_KINDS = ['file', 'aes-ceiling', 'write-ceiling', 'direct', 'zip'] as const;
export type PhaseKind = (typeof PHASE_KINDS)[number];

export interface BenchContext {
  readonly huge: boolean;
  /**
   * --smoke: every phase at a few MiB, once, with the same checks of the saved bytes (npm run
   * bench:smoke); a phase that would be skipped fails the run instead.
   */
  readonly smoke: boolean;
  /** The phases to measure besides the ceiling (--phases=; all by default). */
  readonly phases: ReadonlySet<PhaseKind>;
  readonly paths: { readonly dataDir: string; readonly staticDir: string; readonly dist: string };
  /** `serverPid`: the local server, whose CPU is then reported too. */
  openBrowser(serverPid?: number): Promise<{ page: Page; memory: PeakMemory; repeat: number }>;
  closeBrowser(): Promise<void>;
  printLimits(limits: DecryptLimits): void;
}

export interface MeasuredRun {
  readonly limits: DecryptLimits;
  readonly ceiling: {
    readonly ceilingMBps: number;
    readonly ceilingRunsMBps: number[];
    readonly ceilingKind: string;
    readonly ceilingBrowserCores?: number;
    readonly ceilingServerCores?: number | null;
    readonly ceilingCpuSecondsPerRunByThread?: Record<string, number>;
    readonly ceilingFaultedMiBPerRunByThread?: Record<string, number>;
  };
  readonly phases: Phase[];
}

const MiB = 1024 * 1024;

export interface Phase {
  readonly name: string;
  /**
   * write-ceiling: createWritable alone (download-direct.ts), the direct path's own reference;
   * aes-ceiling: the service-worker ceiling with one AES-GCM pass (download-passthrough-sw.ts).
   */
  readonly kind: 'file' | 'zip' | 'direct' | 'write-ceiling' | 'aes-ceiling';
  readonly plainBytes: number;
  readonly runsMBps: number[];
  readonly medianMBps: number;
  /** Against the raw decrypt limit (one call at a time) of the same run. */
  readonly toDecryptRatio: number;
  /** Against the pass-through ceiling of the same run; null where it cannot be measured (QA mode). */
  readonly toCeilingRatio: number | null;
  /** CPU seconds of the browser's process tree per wall second. */
  readonly browserCores: number;
  /** The same for the local server (null in QA mode, where it runs elsewhere). */
  readonly serverCores: number | null;
  /** Median CPU seconds per run by thread ("browser: ServiceWorker thread", "server: node", ...), largest first, under 0.05 s left out. */
  readonly cpuSecondsPerRunByThread: Record<string, number>;
  /** The same for memory faulted in, MiB per run (process-tree.ts, ThreadCpu.faultedMiB). */
  readonly faultedMiBPerRunByThread: Record<string, number>;
  readonly browserIdleRssMiB: number;
  readonly browserIdlePssMiB: number;
  readonly browserPeakRssMiB: number;
  readonly browserPeakPssMiB: number;
  /** QA mode: what was checked of the saved bytes (no plaintext is known there). */
  readonly saved?: unknown;
}

export interface RunResult {
  readonly seconds: number;
  readonly cpuSeconds: number;
  /** The local server's CPU seconds in the run; null when it is not on this machine. */
  readonly serverCpuSeconds: number | null;
  /** CPU seconds in the run by thread name, "browser: ..." and "server: ...". */
  readonly threadCpuSeconds: ReadonlyMap<string, number>;
  /** MiB faulted in during the run, by the same names. */
  readonly threadFaultedMiB: ReadonlyMap<string, number>;
  readonly peakRssBytes: number;
  readonly peakPssBytes: number;
  /** Where the download manager saved it; null for the direct path (written to OPFS). */
  readonly savedPath: string | null;
}

export const mib = (bytes: number) => Math.round(bytes / MiB);
export const ratio = (value: number, reference: number | null | undefined) => (reference ? Number((value / reference).toFixed(2)) : null);

/** Waits for the page to be idle, then times `start` to `finished` with the tree's peak memory. */
export async function timedRun(page: Page, memory: PeakMemory, start: () => Promise<void>, finished: () => Promise<string | null>): Promise<RunResult> {
  // The ceilings run in a second tab, which leaves the other one in the background: Chromium then
  // runs no animation frames there, and Playwright's click waits for two of them to call the button
  // stable (1.3-1.5 s per direct run, measured inside the run). A user clicks in the tab in front.
  await page.bringToFront();
  await expect(page.getByRole('status', { name: 'Download progress' })).toBeHidden({ timeout: 60_000 });
  await page.waitForTimeout(1000); // let the previous run's garbage go
  const cpuBefore = (await sampleTree(memory.rootPid)).cpuSeconds;
  const serverCpuBefore = memory.serverPid === null ? null : (await sampleTree(memory.serverPid)).cpuSeconds;
  const threadsBefore = await benchThreads(memory.rootPid, memory.serverPid);
  const threadWatch = new ThreadWatch(memory.rootPid, memory.serverPid);
  memory.start();
  threadWatch.start();
  let peak: { peakRssBytes: number; peakPssBytes: number };
  let threadsAfter: BenchThreads;
  let savedPath: string | null;
  let seconds: number;
  try {
    const started = performance.now();
    await start();
    savedPath = await finished();
    seconds = (performance.now() - started) / 1000;
  } finally {
    peak = await memory.stop();
    threadsAfter = await threadWatch.stop();
  }
  const cpuSeconds = (await sampleTree(memory.rootPid)).cpuSeconds - cpuBefore;
  const serverCpuSeconds = memory.serverPid === null || serverCpuBefore === null ? null : (await sampleTree(memory.serverPid)).cpuSeconds - serverCpuBefore;
  return {
    seconds,
    cpuSeconds,
    serverCpuSeconds,
    threadCpuSeconds: benchCpuByThread(threadsBefore, threadsAfter),
    threadFaultedMiB: benchFaultsByThread(threadsBefore, threadsAfter),
    ...peak,
    savedPath,
  };
}

/** Per thread name, the median over the runs of one figure (largestThreads). */
function medianByThread(runs: readonly RunResult[], figure: (run: RunResult) => ReadonlyMap<string, number>): Record<string, number> {
  const names = new Set(runs.flatMap((run) => [...figure(run).keys()]));
  return largestThreads([...names].map((name) => [name, median(runs.map((run) => figure(run).get(name) ?? 0))] as const));
}

/** A download through the browser's download manager: from `click` to the file complete on disk. */
export function timedDownload(page: Page, memory: PeakMemory, click: () => Promise<void>): Promise<RunResult> {
  let event: Promise<Download> | undefined;
  return timedRun(
    page,
    memory,
    async () => {
      event = page.waitForEvent('download', { timeout: 120_000 });
      await click();
    },
    async () => (await event!).path(),
  );
}

export interface PhaseSpec {
  readonly name: string;
  readonly kind: Phase['kind'] | 'ceiling';
  readonly plainBytes: number;
  /** Brings the page to where this phase starts (in-app navigation; a reload would forget unlocked keys). */
  prepare?(): Promise<void>;
  /** One timed run (timedDownload, or the direct path's own). */
  run(): Promise<RunResult>;
  /** Checks a run's output; its result goes into the phase as `saved`. */
  verify(run: RunResult): Promise<unknown>;
}

/** A phase that turns out not to apply (e.g. a build without the direct path): dropped, not failed. */
export class PhaseSkipped extends Error {
  readonly code = 'PHASE_SKIPPED';
}

export interface Measured {
  readonly spec: PhaseSpec;
  readonly runs: RunResult[];
  readonly idle: { rssBytes: number; pssBytes: number };
  saved?: unknown;
}

/**
 * `repeat` rounds of every phase in turn (ceiling, file, direct, ZIP, ceiling, file, ...), so that
 * the machine's load, which drifts over minutes here, weighs on every phase alike and the ratios
 * of one run compare like with like. Idle memory is sampled once per phase, before its first run.
 */
export async function runRounds(page: Page, memory: PeakMemory, specs: readonly PhaseSpec[], repeat: number, skipFails = false): Promise<Measured[]> {
  const measured: Measured[] = [];
  let active = [...specs];
  for (let round = 0; round < repeat; round++) {
    for (const spec of [...active]) {
      await spec.prepare?.();
      let entry = measured.find((m) => m.spec === spec);
      if (!entry) {
        await page.waitForTimeout(1000);
        const idle = await sampleTree(memory.rootPid);
        entry = { spec, runs: [], idle };
        measured.push(entry);
      }
      let run: RunResult;
      try {
        run = await spec.run();
      } catch (error) {
        if (!(error instanceof PhaseSkipped)) throw error;
        if (skipFails) throw new Error(`${spec.name}: would be skipped (${error.message}), which --smoke does not allow`);
        console.log(`  ${spec.name}: skipped: ${error.message}`);
        active = active.filter((s) => s !== spec);
        measured.splice(measured.indexOf(entry), 1);
        continue;
      }
      entry.saved = await spec.verify(run);
      if (run.savedPath) rmSync(run.savedPath, { force: true });
      entry.runs.push(run);
      process.stdout.write(`  round ${round + 1}: ${spec.name}: ${(spec.plainBytes / 1e6 / run.seconds).toFixed(0)} MB/s, peak PSS ${mib(run.peakPssBytes)} MiB (load ${loadavg()[0]!.toFixed(1)})\n`);
    }
  }
  return measured;
}

export const medianMBps = (m: Measured) => median(m.runs.map((run) => m.spec.plainBytes / 1e6 / run.seconds));

export function toPhase(m: Measured, decryptMBps: number, ceilingMBps: number | null): Phase {
  const mbps = m.runs.map((run) => m.spec.plainBytes / 1e6 / run.seconds);
  const medianValue = median(mbps);
  return {
    name: m.spec.name,
    kind: m.spec.kind as Phase['kind'],
    plainBytes: m.spec.plainBytes,
    runsMBps: mbps.map((value) => Math.round(value)),
    medianMBps: Math.round(medianValue),
    toDecryptRatio: ratio(medianValue, decryptMBps)!,
    toCeilingRatio: ratio(medianValue, ceilingMBps),
    browserCores: Number(median(m.runs.map((run) => run.cpuSeconds / run.seconds)).toFixed(2)),
    serverCores: m.runs.every((run) => run.serverCpuSeconds !== null) ? Number(median(m.runs.map((run) => run.serverCpuSeconds! / run.seconds)).toFixed(2)) : null,
    cpuSecondsPerRunByThread: medianByThread(m.runs, (run) => run.threadCpuSeconds),
    faultedMiBPerRunByThread: medianByThread(m.runs, (run) => run.threadFaultedMiB),
    browserIdleRssMiB: mib(m.idle.rssBytes),
    browserIdlePssMiB: mib(m.idle.pssBytes),
    browserPeakRssMiB: mib(Math.max(...m.runs.map((run) => run.peakRssBytes))),
    browserPeakPssMiB: mib(Math.max(...m.runs.map((run) => run.peakPssBytes))),
    ...(m.saved !== undefined ? { saved: m.saved } : {}),
  };
}

/**
 * The direct save against its own CPU bound (bench/cpu-bound.ts): its CPU per GiB (browser tree
 * and server), the rate `cores` allow at that cost, and how close the run came to it; and that
 * bound against the writable alone, the most the direct save could reach here if it kept every
 * core busy. Below the writable's own rate, the save is held back by its work (fetching and
 * decrypting besides writing), not by waits between its stages. null without the server's CPU
 * (QA mode).
 */
export function directCpuFigures(direct: Phase, writeCeiling: Phase, cores: number) {
  if (direct.serverCores === null) return null;
  const directCost = cpuBoundOf(direct.browserCores + direct.serverCores, direct.medianMBps, cores);
  const writableCost = cpuBoundOf(writeCeiling.browserCores + (writeCeiling.serverCores ?? 0), writeCeiling.medianMBps, cores);
  if (!directCost || !writableCost) return null;
  return {
    directCoreSecondsPerGiB: directCost.coreSecondsPerGiB,
    writeCeilingCoreSecondsPerGiB: writableCost.coreSecondsPerGiB,
    directCpuBoundMBps: directCost.cpuBoundMBps,
    directToCpuBoundRatio: ratio(direct.medianMBps, directCost.cpuBoundMBps)!,
    directCpuBoundToWriteCeilingRatio: ratio(directCost.cpuBoundMBps, writeCeiling.medianMBps)!,
  };
}

/**
 * A phase against its reference round by round (the direct save against the writable alone). Both
 * run in every round, one after the other, so each pair met the same load; how far these spread
 * says how much one run's ratio of medians can be trusted (the spreads seen: docs/operations.md,
 * "The AMD EPYC KVM machine a third time"). null unless both have a run, at a rate, in every round.
 */
export function roundRatios(phase: Phase, reference: Phase): number[] | null {
  if (phase.runsMBps.length === 0 || phase.runsMBps.length !== reference.runsMBps.length) return null;
  const ratios = phase.runsMBps.map((mbps, round) => ratio(mbps, reference.runsMBps[round]));
  return ratios.every((value): value is number => value !== null) ? ratios : null;
}

/** The measured rounds as phases, the ceiling (if any) taken out as the reference. */
export function summarize(measured: readonly Measured[], decryptMBps: number): { phases: Phase[]; ceiling: Measured | undefined } {
  const ceiling = measured.find((m) => m.spec.kind === 'ceiling');
  const ceilingMBps = ceiling ? medianMBps(ceiling) : null;
  return { ceiling, phases: measured.filter((m) => m !== ceiling).map((m) => toPhase(m, decryptMBps, ceilingMBps)) };
}

export interface DecryptLimits {
  readonly sequentialDecryptMBps: number;
  readonly parallelDecryptMBps: number;
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

export async function measureDecryptLimits(page: Page): Promise<DecryptLimits> {
  return (await page.evaluate(LIMITS_SCRIPT)) as DecryptLimits;
}

/**
 * The ceilings: the same ciphertext through a bare service worker (bench/download-passthrough-sw.ts)
 * straight to the download manager, in a second tab of the same browser: as it is (the ceiling
 * every ratio is taken against) and through one AES-GCM pass in the worker (kind 'aes-ceiling', what
 * decrypting costs on this path without the app). Needs the benchmark's own copy of the app (the
 * worker is served from it): local runs only. Each run checks that the saved file has the
 * ciphertext's length, so a route that lost bytes cannot pass for a fast one.
 */
export async function passthroughCeilings(page: Page, memory: PeakMemory, baseUrl: string, ciphertextPath: string, plainBytes: number): Promise<PhaseSpec[]> {
  await page.evaluate(`navigator.serviceWorker.register('${PASSTHROUGH_SW_PATH}', { scope: '${PASSTHROUGH_SCOPE}' }).then(() => undefined)`);
  const tab = await page.context().newPage();
  for (let attempt = 0; ; attempt++) {
    await tab.goto(`${baseUrl}${PASSTHROUGH_SCOPE}page`);
    if ((await tab.title()) === 'bench') break;
    if (attempt > 20) throw new Error('the pass-through service worker did not take over its scope');
    await tab.waitForTimeout(250);
  }
  const cipherBytes = Number(
    await tab.evaluate(`fetch('${ciphertextPath}', { headers: { range: 'bytes=0-0' }, cache: 'no-store' }).then((r) => { r.body?.cancel(); return (r.headers.get('content-range') ?? '').split('/')[1]; })`),
  );
  if (!Number.isSafeInteger(cipherBytes) || cipherBytes <= 0) throw new Error('the ciphertext route did not tell its length');
  const viaRoute = (name: string, path: string, kind: 'ceiling' | 'aes-ceiling'): PhaseSpec => ({
    name,
    kind,
    plainBytes,
    run: () =>
      timedDownload(tab, memory, () =>
        tab.evaluate(`(() => { const f = document.createElement('iframe'); f.hidden = true; f.src = '${PASSTHROUGH_SCOPE}${path}?url=${ciphertextPath}'; document.body.append(f); })()`),
      ),
    verify: async (run) => {
      const saved = statSync(run.savedPath!).size;
      if (saved !== cipherBytes) throw new Error(`${name}: saved ${saved} bytes, the ciphertext has ${cipherBytes}`);
      return undefined;
    },
  });
  return [
    viaRoute('ceiling: ciphertext through a bare service worker to disk', 'passthrough', 'ceiling'),
    viaRoute('ceiling with one AES-GCM pass in the bare service worker', 'passthrough-aes', 'aes-ceiling'),
  ];
}

/**
 * QA mode's transport reference (no pass-through worker can be installed on a deployment): the
 * page fetches the ciphertext itself and discards it, i.e. network, proxy and storage without the
 * service worker, decryption or disk. An upper bound of what the deployment can serve this browser.
 */
export function networkCeiling(page: Page, memory: PeakMemory, url: string, plainBytes: number): PhaseSpec {
  return {
    name: 'ceiling: the page reads the ciphertext and discards it',
    kind: 'ceiling',
    plainBytes,
    run: () =>
      timedRun(
        page,
        memory,
        () =>
          page.evaluate(`(async () => {
            const response = await fetch(${JSON.stringify(url)}, { cache: 'no-store', credentials: 'same-origin' });
            if (!response.ok) throw new Error('ciphertext fetch answered ' + response.status);
            const reader = response.body.getReader();
            for (;;) { const { done } = await reader.read(); if (done) break; }
          })()`),
        async () => null,
      ),
    verify: async () => undefined,
  };
}
