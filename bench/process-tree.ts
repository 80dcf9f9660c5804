// Samples the memory of a process tree (the Chromium browser and all its children) from /proc,
// every SAMPLE_INTERVAL_MS: the sum of RSS (what the issue asks for) and of PSS (shared pages
// divided among the processes sharing them, so the sum is not inflated by shared memory).
import { readdirSync, readFileSync } from 'node:fs';

/*
 * /proc is read synchronously. Its files live in kernel memory and answer in microseconds, while
 * fs/promises' readFile makes several thread-pool hops per file and, as procfs reports no size,
 * allocates a 64 KiB buffer for each: one walk of /proc cost 35 ms of CPU that way against 2.4 ms
 * read synchronously, and the samplers walk it several times a second, so they took a quarter of
 * a core from the very runs they measure (docs/operations.md, "The benchmark's own CPU").
 */
async function readProcFile(path: string): Promise<string> {
  return readFileSync(path, 'utf8');
}

async function readProcDir(path: string): Promise<string[]> {
  return readdirSync(path);
}

export interface MemorySample {
  readonly rssBytes: number;
  readonly pssBytes: number;
  readonly processes: number;
  /** utime + stime of the tree so far, in seconds (to tell CPU-bound phases from waiting ones). */
  readonly cpuSeconds: number;
}

async function children(): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  for (const entry of await readProcDir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readProcFile(`/proc/${entry}/stat`);
      // Field 4 (ppid) follows the parenthesised command name, which may itself contain spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(entry));
      map.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  return map;
}

/** Linux's USER_HZ, 100 on every common architecture. */
const CLOCK_TICKS_PER_SECOND = 100;

async function cpuTicks(pid: number): Promise<number> {
  try {
    const stat = await readProcFile(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) are 11 and 12 after the command name.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

async function kib(path: string, field: string): Promise<number> {
  try {
    const text = await readProcFile(path);
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The browser Playwright launched: a child of this node process whose command name is chromium. */
export async function findBrowserPid(): Promise<number> {
  const tree = await children();
  for (const pid of tree.get(process.pid) ?? []) {
    const comm = (await readProcFile(`/proc/${pid}/comm`).catch(() => '')).trim();
    if (comm.startsWith('chrom')) return pid;
  }
  throw new Error('could not find the Chromium process among this process\'s children');
}

export async function sampleTree(rootPid: number): Promise<MemorySample> {
  const tree = await children();
  const pids: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    pids.push(pid);
    queue.push(...(tree.get(pid) ?? []));
  }
  let rssBytes = 0;
  let pssBytes = 0;
  let ticks = 0;
  for (const pid of pids) {
    rssBytes += await kib(`/proc/${pid}/status`, 'VmRSS');
    pssBytes += await kib(`/proc/${pid}/smaps_rollup`, 'Pss');
    ticks += await cpuTicks(pid);
  }
  return { rssBytes, pssBytes, processes: pids.length, cpuSeconds: ticks / CLOCK_TICKS_PER_SECOND };
}

/**
 * Time the tree's threads spent running, and runnable but waiting for a CPU (from
 * /proc/<pid>/task/<tid>/schedstat, nanoseconds). Waiting time shows CPU contention directly:
 * threads that had work but no core.
 */
export async function schedulerTimes(rootPid: number): Promise<{ runSeconds: number; waitSeconds: number }> {
  const tree = await children();
  const queue = [rootPid];
  let run = 0;
  let wait = 0;
  while (queue.length > 0) {
    const pid = queue.pop()!;
    queue.push(...(tree.get(pid) ?? []));
    const tasks = await readProcDir(`/proc/${pid}/task`).catch(() => [] as string[]);
    for (const tid of tasks) {
      const fields = (await readProcFile(`/proc/${pid}/task/${tid}/schedstat`).catch(() => '0 0')).trim().split(' ');
      run += Number(fields[0]);
      wait += Number(fields[1]);
    }
  }
  return { runSeconds: run / 1e9, waitSeconds: wait / 1e9 };
}

/**
 * The whole machine's CPU time so far, from the first line of /proc/stat, in seconds summed over
 * the cores. The trees' own utime + stime leave out what the kernel does for them elsewhere:
 * interrupts and softirqs (loopback TCP is processed there), kernel threads writing back what they
 * wrote (kworker, jbd2); and on a virtual machine, time the hypervisor gave to someone else
 * (steal): cores that were neither busy for the run nor idle for want of work.
 */
export interface MachineCpu {
  /** user + nice + system + irq + softirq. */
  readonly busySeconds: number;
  /** idle + iowait. */
  readonly idleSeconds: number;
  readonly stealSeconds: number;
  /** This benchmark process's own CPU (its samplers), to be taken off the machine's busy time. */
  readonly benchSeconds: number;
}

export async function machineCpu(): Promise<MachineCpu> {
  const line = (await readProcFile('/proc/stat')).split('\n', 1)[0]!;
  // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  const own = process.cpuUsage();
  return {
    busySeconds: (user + nice + system + irq + softirq) / CLOCK_TICKS_PER_SECOND,
    idleSeconds: (idle + iowait) / CLOCK_TICKS_PER_SECOND,
    stealSeconds: steal / CLOCK_TICKS_PER_SECOND,
    benchSeconds: (own.user + own.system) / 1e6,
  };
}

/** What the machine did between two samples, in seconds summed over the cores. */
export interface MachineCpuSpent {
  /** Busy apart from this benchmark process: the run's processes, the kernel's work for them, anything else running. */
  readonly busySeconds: number;
  readonly idleSeconds: number;
  readonly stealSeconds: number;
  /** This benchmark process's own CPU (its samplers and polls): taken from the run's cores, not counted as its work. */
  readonly benchSeconds: number;
}

export function machineCpuBetween(before: MachineCpu, after: MachineCpu): MachineCpuSpent {
  const benchSeconds = after.benchSeconds - before.benchSeconds;
  return {
    busySeconds: Math.max(0, after.busySeconds - before.busySeconds - benchSeconds),
    idleSeconds: after.idleSeconds - before.idleSeconds,
    stealSeconds: after.stealSeconds - before.stealSeconds,
    benchSeconds,
  };
}

/** Linux's page on x86-64 and on arm64 as Debian builds it. */
const PAGE_BYTES = 4096;

export interface ThreadCpu {
  /** Thread name with trailing digits dropped (Chromium's "DedicatedWorker thread", "ThreadPoolForeg", "Chrome_IOThread"; node's "node", "libuv-worker"). */
  readonly name: string;
  readonly seconds: number;
  /**
   * Memory the thread has faulted in so far, in MiB (its minor page faults times the page size):
   * mostly fresh memory its copies and buffers touched. Where faults are dear (a VM whose host
   * shadows or reclaims guest memory) this is what a thread's CPU time is mostly made of
   * (docs/operations.md, "Fresh memory, counted by thread").
   */
  readonly faultedMiB: number;
}

/** What benchByThread adds up: CPU seconds, or MiB faulted in. */
export type ThreadFigure = 'seconds' | 'faultedMiB';

/** CPU seconds and faulted-in memory of each thread of the tree so far, by "pid/tid". */
export async function threadCpuSeconds(rootPid: number): Promise<Map<string, ThreadCpu>> {
  const tree = await children();
  const queue = [rootPid];
  const threads = new Map<string, ThreadCpu>();
  while (queue.length > 0) {
    const pid = queue.pop()!;
    queue.push(...(tree.get(pid) ?? []));
    const tasks = await readProcDir(`/proc/${pid}/task`).catch(() => [] as string[]);
    for (const tid of tasks) {
      const stat = await readProcFile(`/proc/${pid}/task/${tid}/stat`).catch(() => '');
      if (!stat) continue;
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[\d\s]+$/, '');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command name: minflt is field 7, utime and stime 11 and 12.
      threads.set(`${pid}/${tid}`, {
        name,
        seconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND,
        faultedMiB: (Number(fields[7]) * PAGE_BYTES) / (1024 * 1024),
      });
    }
  }
  return threads;
}

/**
 * Where CPU (or faulted-in memory) went between two samples, by thread name: each thread's own
 * difference (a thread started in between counts from zero; one that ended in between is missing,
 * its time lost).
 */
export function cpuByThreadName(before: Map<string, ThreadCpu>, after: Map<string, ThreadCpu>, figure: ThreadFigure = 'seconds'): Map<string, number> {
  const byName = new Map<string, number>();
  for (const [id, thread] of after) {
    const spent = thread[figure] - (before.get(id)?.[figure] ?? 0);
    byName.set(thread.name, (byName.get(thread.name) ?? 0) + spent);
  }
  return byName;
}

/** The threads of the browser's tree and of the local server (null where it runs elsewhere). */
export interface BenchThreads {
  readonly browser: Map<string, ThreadCpu>;
  readonly server: Map<string, ThreadCpu> | null;
}

export async function benchThreads(browserPid: number, serverPid: number | null): Promise<BenchThreads> {
  return { browser: await threadCpuSeconds(browserPid), server: serverPid === null ? null : await threadCpuSeconds(serverPid) };
}

/** Adds one run's figures by thread name (benchCpuByThread, benchFaultsByThread) into the phase's running total. */
export function addByThread(total: Map<string, number>, spent: ReadonlyMap<string, number>): void {
  for (const [name, seconds] of spent) total.set(name, (total.get(name) ?? 0) + seconds);
}

/** Each thread as last seen: `later` where it has it, else `earlier` (a thread that ended in between). */
export function lastSeenThreads(earlier: Map<string, ThreadCpu>, later: Map<string, ThreadCpu>): Map<string, ThreadCpu> {
  return new Map([...earlier, ...later]);
}

/**
 * The threads of the browser's tree and of the server, sampled every SAMPLE_INTERVAL_MS while a
 * run lasts, so a thread that ends before the run's last sample (the direct save's worker is
 * terminated when the file is complete) still counts, up to its last sample, instead of being lost.
 */
export class ThreadWatch {
  private timer: NodeJS.Timeout | undefined;
  private seen: BenchThreads = { browser: new Map(), server: null };
  private sampling: Promise<void> | null = null;

  constructor(
    readonly browserPid: number,
    readonly serverPid: number | null,
  ) {}

  start(): void {
    this.seen = { browser: new Map(), server: this.serverPid === null ? null : new Map() };
    this.timer = setInterval(() => void this.sample(), SAMPLE_INTERVAL_MS);
  }

  /** The last sample of every thread seen since start(), the final one taken now. */
  async stop(): Promise<BenchThreads> {
    clearInterval(this.timer);
    await this.sampling;
    await this.sample();
    return this.seen;
  }

  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = (async () => {
      const now = await benchThreads(this.browserPid, this.serverPid);
      this.seen = {
        browser: lastSeenThreads(this.seen.browser, now.browser),
        server: this.seen.server && now.server ? lastSeenThreads(this.seen.server, now.server) : now.server,
      };
    })().finally(() => (this.sampling = null));
    await this.sampling;
  }
}

/** CPU seconds between two samples by "browser: <thread>" and "server: <thread>". */
export function benchCpuByThread(before: BenchThreads, after: BenchThreads): Map<string, number> {
  return benchByThread(before, after, 'seconds');
}

/** MiB faulted in between two samples by "browser: <thread>" and "server: <thread>". */
export function benchFaultsByThread(before: BenchThreads, after: BenchThreads): Map<string, number> {
  return benchByThread(before, after, 'faultedMiB');
}

function benchByThread(before: BenchThreads, after: BenchThreads, figure: ThreadFigure): Map<string, number> {
  const bySide = new Map<string, number>();
  const sides: Array<[string, Map<string, ThreadCpu> | null, Map<string, ThreadCpu> | null]> = [
    ['browser', before.browser, after.browser],
    ['server', before.server, after.server],
  ];
  for (const [side, from, to] of sides) {
    if (from && to) for (const [name, value] of cpuByThreadName(from, to, figure)) bySide.set(`${side}: ${name}`, value);
  }
  return bySide;
}

/** Per-thread figures as the JSON has them: to 0.01 s, those under 0.05 s left out, the largest first. */
export function largestThreads(seconds: Iterable<readonly [string, number]>): Record<string, number> {
  return Object.fromEntries(
    [...seconds]
      .map(([name, value]) => [name, Number(value.toFixed(2))] as const)
      .filter(([, value]) => value >= 0.05)
      .sort((a, b) => b[1] - a[1]),
  );
}

/**
 * The largest per-thread figures on one line, or null when there are none: CPU seconds per run, or
 * (bench:crypto) CPU milliseconds per MB processed; with `figure` 'faultedMiB', the MiB of memory
 * faulted in per run or per MB.
 */
export function formatThreads(byThread: Record<string, number>, count = 8, per: 'run' | 'MB' = 'run', figure: ThreadFigure = 'seconds'): string | null {
  const top = Object.entries(byThread).slice(0, count);
  if (top.length === 0) return null;
  if (figure === 'faultedMiB') {
    const digits = per === 'run' ? 0 : 2;
    return `Memory faulted in per ${per} by thread: ${top.map(([name, value]) => `${name} ${value.toFixed(digits)} MiB`).join(', ')}`;
  }
  const unit = per === 'run' ? 's' : 'ms';
  return `CPU per ${per} by thread: ${top.map(([name, value]) => `${name} ${value.toFixed(2)} ${unit}`).join(', ')}`;
}

/** Prints formatThreads' line, indented (nothing when there are no figures). */
export function printThreads(byThread: Record<string, number>, count = 8, per: 'run' | 'MB' = 'run', figure: ThreadFigure = 'seconds'): void {
  const line = formatThreads(byThread, count, per, figure);
  if (line) console.log(`      ${line}`);
}

/**
 * How often PeakMemory samples. Reading smaps_rollup makes the kernel walk every mapping of a
 * process, and Chromium's processes map a lot: at 100 ms the sampler itself kept most of a core
 * busy (measured: ~70 ms of CPU per sample), taking it from the browser it measures. Once a second it
 * costs a few per cent of one core; the memory of these pipelines is flat over seconds.
 */
export const SAMPLE_INTERVAL_MS = 1000;

export class PeakMemory {
  private timer: NodeJS.Timeout | undefined;
  private peakRss = 0;
  private peakPss = 0;
  private sampling = false;

  /** `serverPid`: a server on this machine whose CPU the benchmark reports beside the browser's. */
  constructor(
    readonly rootPid: number,
    readonly serverPid: number | null = null,
  ) {}

  start(): void {
    this.peakRss = 0;
    this.peakPss = 0;
    this.timer = setInterval(() => void this.sample(), SAMPLE_INTERVAL_MS);
  }

  async stop(): Promise<{ peakRssBytes: number; peakPssBytes: number }> {
    clearInterval(this.timer);
    await this.sample();
    return { peakRssBytes: this.peakRss, peakPssBytes: this.peakPss };
  }

  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const sample = await sampleTree(this.rootPid);
      this.peakRss = Math.max(this.peakRss, sample.rssBytes);
      this.peakPss = Math.max(this.peakPss, sample.pssBytes);
    } finally {
      this.sampling = false;
    }
  }
}
