import { describe, expect, it } from 'vitest';
import { cpuByThreadName, lastSeenThreads, type ThreadCpu } from '../../bench/process-tree.ts';

const threads = (entries: Array<[string, string, number]>) => new Map<string, ThreadCpu>(entries.map(([id, name, seconds]) => [id, { name, seconds }]));

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
