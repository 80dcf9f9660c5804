// npm run bench:smoke (bench/smoke.ts) fails CI when a benchmark breaks: a benchmark's throw or
// failed check reaches the runner's exit status, a hung one is stopped, every bench:* command is in
// the run, and in --smoke a phase that would be skipped or whose bytes differ fails the download
// benchmark's rounds. Fake benchmarks are one-line node scripts; no browser is started.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { PhaseSkipped, runRounds, type PhaseSpec, type RunResult } from '../../bench/download-phases.ts';
import type { PeakMemory } from '../../bench/process-tree.ts';
import { runSmoke, smokeExitCode, SMOKE_BENCHES } from '../../bench/smoke.ts';

const fake = (name: string, source: string) => ({ name, nodeArgs: ['-e', source] });

describe('bench:smoke runner', () => {
  it('fails the run when a benchmark throws, and still runs the ones after it', async () => {
    const results = await runSmoke([fake('passes', 'process.exit(0)'), fake('throws', "throw new Error('SHA-256 differs from the plaintext')"), fake('after', '')]);
    expect(results.map((result) => [result.name, result.exitCode, result.failure])).toEqual([
      ['passes', 0, undefined],
      ['throws', 1, 'exited with status 1'],
      ['after', 0, undefined],
    ]);
    expect(smokeExitCode(results)).toBe(1);
    expect(smokeExitCode([results[0]!, results[2]!])).toBe(0);
  });

  it('stops a benchmark that outlives its time limit and fails the run', async () => {
    const [result] = await runSmoke([fake('hangs', 'setInterval(() => {}, 1000)')], { timeLimitMs: 500 });
    expect(result!.failure).toBe('took longer than 1 s and was stopped');
    expect(result!.signal).toBe('SIGTERM');
    expect(smokeExitCode([result!])).toBe(1);
  });

  it('runs every bench:* command of package.json in --smoke mode', () => {
    const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const benchScripts = Object.entries(scripts)
      .filter(([name]) => name.startsWith('bench:') && name !== 'bench:smoke')
      .map(([, command]) => command.replace(/^tsx /, ''));
    expect(benchScripts.length).toBeGreaterThanOrEqual(8);
    for (const smoke of SMOKE_BENCHES) expect(smoke.nodeArgs.slice(0, 2).concat(smoke.nodeArgs.at(-1)!)).toEqual(['--import', 'tsx', '--smoke']);
    const smokedScripts = new Set(SMOKE_BENCHES.map((smoke) => smoke.nodeArgs[2]));
    expect([...smokedScripts].sort()).toEqual([...benchScripts].sort());
    expect(SMOKE_BENCHES.map((smoke) => smoke.name)).toContain('kdf --sign-in');
  });
});

describe('bench:download rounds in --smoke', () => {
  const memory = { rootPid: process.pid, serverPid: null, start() {}, stop: async () => ({ peakRssBytes: 0, peakPssBytes: 0 }) } as unknown as PeakMemory;
  const page = { waitForTimeout: async () => undefined } as unknown as Page;
  const run: RunResult = { seconds: 1, cpuSeconds: 0, serverCpuSeconds: null, threadCpuSeconds: new Map(), threadFaultedMiB: new Map(), peakRssBytes: 0, peakPssBytes: 0, savedPath: null };
  const spec = (overrides: Partial<PhaseSpec>): PhaseSpec => ({ name: 'direct to disk, one file', kind: 'direct', plainBytes: 1, run: async () => run, verify: async () => undefined, ...overrides });
  const skipped = spec({
    run: async () => {
      throw new PhaseSkipped('no direct-to-disk path in this build');
    },
  });

  it('fails on a phase a full run would skip', async () => {
    await expect(runRounds(page, memory, [skipped], 1, true)).rejects.toThrow(/would be skipped \(no direct-to-disk path in this build\)/);
    expect(await runRounds(page, memory, [skipped], 1)).toEqual([]);
  });

  it('fails when a phase finds different bytes', async () => {
    const corrupted = spec({
      verify: async () => {
        throw new Error('direct: one.bin: SHA-256 of the OPFS file differs from the plaintext');
      },
    });
    await expect(runRounds(page, memory, [corrupted], 1, true)).rejects.toThrow('SHA-256 of the OPFS file differs');
  });
});
