import { describe, expect, it } from 'vitest';
import { cpuByThreadName, formatThreads, lastSeenThreads, type ThreadCpu } from '../../bench/process-tree.ts';

const threads = (entries: Array<[string, string, number]>) => new Map<string, ThreadCpu>(entries.map(([id, name, seconds]) => [id, { name, seconds, faultedMiB: 0 }]));

describe('threads sampled during a run', () => {
  it('keeps a thread that ended before the last sample at its last seen CPU, so it counts by name', () => {
    const before = threads([['1/1', 'chromium', 10]]);
    const duringRun = threads([['1/1', 'chromium', 11], ['1/7', 'DedicatedWorker thread', 3.5]]);
    const atTheEnd = threads([['1/1', 'chromium', 12]]); // the worker was terminated
    const seen = lastSeenThreads(duringRun, atTheEnd);
    expect(Object.fromEntries(cpuByThreadName(before, seen))).toEqual({ chromium: 2, 'DedicatedWorker thread': 3.5 });
    // Without the samples in between the worker's time is lost.
    expect(Object.fromEntries(cpuByThreadName(before, atTheEnd))).toEqual({ chromium: 2 });
  });
});

describe('per-thread figures on one line', () => {
  const byThread = { 'browser: DedicatedWorker': 4.114, 'browser: ThreadPoolForeg': 0.57, 'browser: chromium': 0.28 };

  it('gives seconds per run, or (bench:crypto) milliseconds per MB, the largest first as given', () => {
    expect(formatThreads(byThread, 2)).toBe('CPU per run by thread: browser: DedicatedWorker 4.11 s, browser: ThreadPoolForeg 0.57 s');
    expect(formatThreads(byThread, 8, 'MB')).toBe('CPU per MB by thread: browser: DedicatedWorker 4.11 ms, browser: ThreadPoolForeg 0.57 ms, browser: chromium 0.28 ms');
  });

  it('gives the memory faulted in as MiB per run, or per MB to two places', () => {
    const faulted = { 'browser: DedicatedWorker': 1047.6, 'browser: ThreadPoolForeg': 69.2 };
    expect(formatThreads(faulted, 8, 'run', 'faultedMiB')).toBe('Memory faulted in per run by thread: browser: DedicatedWorker 1048 MiB, browser: ThreadPoolForeg 69 MiB');
    expect(formatThreads({ 'browser: DedicatedWorker': 1.0234 }, 8, 'MB', 'faultedMiB')).toBe('Memory faulted in per MB by thread: browser: DedicatedWorker 1.02 MiB');
  });

  it('is null when no thread was measured (no line printed)', () => {
    expect(formatThreads({}, 8, 'MB')).toBeNull();
  });
});
