/**
 * npm run bench:smoke [-- --only=download,cli]   (names as the summary prints them)
 *
 * Every benchmark once in its --smoke mode, one after the other, so that a benchmark the code
 * has moved away from fails CI instead of rotting unnoticed: the same code, phases and checks of
 * the saved or fetched bytes as a full run, at a few MiB and one repeat. No figure is judged (on a
 * shared machine at these sizes they mean nothing); a benchmark fails the smoke run when it exits
 * with any status but 0, by a check that found different bytes or by anything it threw, or takes
 * longer than its time limit. Each writes its JSON under bench-results/ as a full run does; this
 * runner adds bench-results/smoke-<date>.json with each one's wall time and the load average.
 *
 * bench:scale and bench:admin-reads need the rig of npm run test:scale (Swift, nginx, PostgreSQL;
 * tests/scale/rig.ts) on ports 9450-9462, or from BENCH_RIG_PORT; bench:upload takes port 8195 or
 * BENCH_UPLOAD_PORT; the others take free ports.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface SmokeBench {
  readonly name: string;
  /** Arguments to node (this node binary), from the repository's root. */
  readonly nodeArgs: readonly string[];
}

export interface SmokeResult {
  readonly name: string;
  readonly seconds: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Why it failed (exit status, signal or time limit); absent when it passed. */
  readonly failure?: string;
  readonly loadAverageBefore: number;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Far above any smoke run (the longest takes well under a minute): a hung browser fails the run instead of holding CI. */
export const SMOKE_TIME_LIMIT_MS = 5 * 60_000;

const bench = (name: string, ...options: string[]): SmokeBench => ({
  name: [name, ...options].join(' '),
  nodeArgs: ['--import', 'tsx', `bench/${name}.ts`, ...options, '--smoke'],
});

/**
 * Every npm run bench:* command, in the order they run. bench:kdf --sign-in signs in through the
 * built app in dist/, which bench:download has brought up to date just before; bench:upload uses
 * that same build (a full run builds a copy of its own, which here would only cost CI a build).
 */
export const SMOKE_BENCHES: readonly SmokeBench[] = [
  bench('crypto'),
  bench('kdf'),
  bench('download'),
  bench('kdf', '--sign-in'),
  bench('upload', '--app-dir=dist'),
  bench('recover'),
  bench('cli'),
  bench('scale'),
  bench('admin-reads'),
];

/** Runs one benchmark as a child process with its output on ours; resolves with how it ended (never rejects). */
export function runSmokeBench(smoke: SmokeBench, options: { timeLimitMs?: number; cwd?: string } = {}): Promise<SmokeResult> {
  const timeLimitMs = options.timeLimitMs ?? SMOKE_TIME_LIMIT_MS;
  const loadAverageBefore = Number(loadavg()[0]!.toFixed(2));
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, smoke.nodeArgs, { cwd: options.cwd ?? ROOT, stdio: 'inherit' });
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    // SIGTERM first: the rig benchmarks stop what they started on it; SIGKILL if that hangs too.
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    }, timeLimitMs);
    const settle = (exitCode: number | null, signal: string | null, spawnError?: Error) => {
      clearTimeout(timer);
      clearTimeout(killer);
      const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
      const failure = spawnError
        ? `could not start: ${spawnError.message}`
        : timedOut
          ? `took longer than ${Math.round(timeLimitMs / 1000)} s and was stopped`
          : exitCode !== 0
            ? signal
              ? `ended by ${signal}`
              : `exited with status ${exitCode}`
            : undefined;
      resolve({ name: smoke.name, seconds, exitCode, signal, loadAverageBefore, ...(failure ? { failure } : {}) });
    };
    child.once('error', (error) => settle(null, null, error));
    child.once('exit', (code, signal) => settle(code, signal));
  });
}

/** Runs the benchmarks one after the other (they share the two cores and some ports); every one runs even after a failure. */
export async function runSmoke(benches: readonly SmokeBench[], options: { timeLimitMs?: number; cwd?: string; onResult?: (result: SmokeResult) => void } = {}): Promise<SmokeResult[]> {
  const results: SmokeResult[] = [];
  for (const smoke of benches) {
    const result = await runSmokeBench(smoke, options);
    options.onResult?.(result);
    results.push(result);
  }
  return results;
}

/** 0 when every benchmark passed, else 1. */
export const smokeExitCode = (results: readonly SmokeResult[]): number => (results.length > 0 && results.every((result) => result.failure === undefined) ? 0 : 1);

async function main(): Promise<void> {
  const only = process.argv
    .slice(2)
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .map((name) => name.trim());
  const unknown = only?.filter((name) => !SMOKE_BENCHES.some((smoke) => smoke.name === name)) ?? [];
  if (unknown.length > 0) {
    console.error(`bench:smoke: unknown benchmark ${unknown.join(', ')} (known: ${SMOKE_BENCHES.map((smoke) => smoke.name).join(', ')})`);
    process.exitCode = 2;
    return;
  }
  const benches = only ? SMOKE_BENCHES.filter((smoke) => only.includes(smoke.name)) : SMOKE_BENCHES;
  const date = new Date().toISOString();
  const started = performance.now();
  const results = await runSmoke(benches, {
    onResult: (result) => console.log(`\nbench:smoke: ${result.name} ${result.failure ? `FAILED (${result.failure})` : 'passed'} in ${result.seconds} s\n`),
  });
  const totalSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  console.log(`bench:smoke on ${cpus().length} cores, ${totalSeconds} s in all (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end):`);
  for (const result of results) console.log(`  ${result.name.padEnd(16)} ${String(result.seconds).padStart(6)} s  load ${result.loadAverageBefore.toFixed(2)} before  ${result.failure ? `FAILED: ${result.failure}` : 'ok'}`);
  await mkdir(`${ROOT}bench-results`, { recursive: true });
  const file = `${ROOT}bench-results/smoke-${date.replace(/[:.]/g, '-')}.json`;
  await writeFile(file, `${JSON.stringify({ bench: 'smoke', date, cores: cpus().length, totalSeconds, loadAverageAtEnd: loadavg(), results }, null, 2)}\n`);
  console.log(`written ${file}`);
  process.exitCode = smokeExitCode(results);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
