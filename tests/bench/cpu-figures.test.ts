import { describe, expect, it } from 'vitest';
import { benchCpuByThread, benchFaultsByThread, cpuByThreadName, largestThreads, machineCpuBetween, type ThreadCpu } from '../../bench/process-tree.ts';
import { cpuBoundOf } from '../../bench/cpu-bound.ts';
import { directCpuFigures, roundRatios, type Phase } from '../../bench/download-phases.ts';
import { cpuCost, machineCpuCost, type PhaseResult } from '../../bench/upload-phases.ts';

function phase(medianMBps: number, browserCores: number, serverCores?: number, machine = { machineCores: 0, stolenCores: 0, benchCores: 0 }): PhaseResult {
  return {
    name: 'encrypted upload, one 1 GiB file',
    files: 1,
    bytes: 1024 ** 3,
    runs: [],
    medianMBps,
    medianFilesPerSecond: 0,
    browserPeakRssMiB: 0,
    browserPeakPssMiB: 0,
    browserIdleRssMiB: 0,
    browserIdlePssMiB: 0,
    browserPssRiseMiB: 0,
    browserCores,
    ...machine,
    cpuSecondsPerRun: 0,
    ...(serverCores === undefined ? {} : { serverCores }),
    cpuSecondsPerRunByThread: {},
    faultedMiBPerRunByThread: {},
  };
}

describe('cpuCost', () => {
  it('gives CPU seconds per GiB and the rate all cores allow at that cost', () => {
    // 1.6 cores busy at 128 MB/s: 0.0125 CPU-s per MB, 13.4 per GiB; two cores allow 160 MB/s.
    expect(cpuCost(phase(128, 1.3, 0.3), 2)).toEqual({ coreSecondsPerGiB: 13.4, cpuBoundMBps: 160 });
  });

  it('has no figure without the CPU of the server (QA mode) or without a rate', () => {
    expect(cpuCost(phase(128, 1.3), 2)).toBeNull();
    expect(cpuCost(phase(0, 1.3, 0.3), 2)).toBeNull();
  });
});

describe('machineCpuCost', () => {
  it('counts the whole machine busy against the cores the hypervisor left', () => {
    // 1.6 cores in the processes, 1.9 on the machine, 0.1 stolen: 0.0148 core-s per MB; 1.9 cores allow 128 MB/s.
    expect(machineCpuCost(phase(128, 1.3, 0.3, { machineCores: 1.9, stolenCores: 0.1, benchCores: 0 }), 2)).toEqual({ coreSecondsPerGiB: 15.9, cpuBoundMBps: 128 });
  });

  it('has no figure without the server on this machine or without a machine sample', () => {
    expect(machineCpuCost(phase(128, 1.3, undefined, { machineCores: 1.9, stolenCores: 0, benchCores: 0 }), 2)).toBeNull();
    expect(machineCpuCost(phase(128, 1.3, 0.3), 2)).toBeNull();
  });
});

describe('cpuBoundOf', () => {
  it('has no figure for a rate or a CPU time that cannot be a cost', () => {
    expect(cpuBoundOf(1.5, 0, 2)).toBeNull();
    expect(cpuBoundOf(0, 100, 2)).toBeNull();
    expect(cpuBoundOf(1.5, 100, 0)).toBeNull();
  });
});

function downloadPhase(kind: 'direct' | 'write-ceiling', medianMBps: number, browserCores: number, serverCores: number | null, runsMBps = [medianMBps]): Phase {
  return {
    name: kind,
    kind,
    plainBytes: 1024 ** 3,
    runsMBps,
    medianMBps,
    toDecryptRatio: 0,
    toCeilingRatio: null,
    browserCores,
    serverCores,
    cpuSecondsPerRunByThread: {},
    faultedMiBPerRunByThread: {},
    browserIdleRssMiB: 0,
    browserIdlePssMiB: 0,
    browserPeakRssMiB: 0,
    browserPeakPssMiB: 0,
  };
}

describe('directCpuFigures', () => {
  it('gives the direct save its CPU bound, how near it came, and that bound against the writable alone', () => {
    // Direct: 1.6 + 0.1 cores at 108 MB/s, 0.01574 core-s per MB: two cores allow 127 MB/s, 0.85
    // of it reached, 0.84 of the writable's 152 MB/s at best. The writable: 1.44 cores at 152 MB/s.
    expect(directCpuFigures(downloadPhase('direct', 108, 1.6, 0.1), downloadPhase('write-ceiling', 152, 1.44, null), 2)).toEqual({
      directCoreSecondsPerGiB: 16.9,
      writeCeilingCoreSecondsPerGiB: 10.2,
      directCpuBoundMBps: 127,
      directToCpuBoundRatio: 0.85,
      directCpuBoundToWriteCeilingRatio: 0.84,
    });
  });

  it('has no figure without the server on this machine (QA mode)', () => {
    expect(directCpuFigures(downloadPhase('direct', 108, 1.6, null), downloadPhase('write-ceiling', 152, 1.44, null), 2)).toBeNull();
  });
});

describe('roundRatios', () => {
  it('pairs each round of the direct save with the same round of the writable alone', () => {
    // The medians give 238 / 319 = 0.75; the rounds 1.30, 0.64 and 0.75 show how far one run can land from it.
    expect(roundRatios(downloadPhase('direct', 238, 1.5, 0.1, [241, 215, 238]), downloadPhase('write-ceiling', 319, 1.4, null, [186, 337, 319]))).toEqual([1.3, 0.64, 0.75]);
  });

  it('has no figure when a phase lacks a round', () => {
    expect(roundRatios(downloadPhase('direct', 238, 1.5, 0.1, [241, 215]), downloadPhase('write-ceiling', 319, 1.4, null, [186, 337, 319]))).toBeNull();
    expect(roundRatios(downloadPhase('direct', 0, 0, 0.1, []), downloadPhase('write-ceiling', 0, 0, null, []))).toBeNull();
  });
});

describe('machineCpuBetween', () => {
  it('takes the benchmark process\'s own CPU off the machine\'s busy time and reports it apart', () => {
    const before = { busySeconds: 100, idleSeconds: 50, stealSeconds: 2, benchSeconds: 10 };
    const after = { busySeconds: 130, idleSeconds: 55, stealSeconds: 3, benchSeconds: 11.5 };
    expect(machineCpuBetween(before, after)).toEqual({ busySeconds: 28.5, idleSeconds: 5, stealSeconds: 1, benchSeconds: 1.5 });
  });
});

describe('cpuByThreadName', () => {
  const sample = (entries: Array<[string, string, number, number?]>) => new Map<string, ThreadCpu>(entries.map(([id, name, seconds, faultedMiB = 0]) => [id, { name, seconds, faultedMiB }]));

  it('adds up the difference of each thread by name; a thread started in between counts from zero', () => {
    const before = sample([
      ['10/11', 'DedicatedWorker thread', 5],
      ['10/12', 'DedicatedWorker thread', 1],
      ['20/21', 'node', 3],
    ]);
    const after = sample([
      ['10/11', 'DedicatedWorker thread', 7],
      ['10/12', 'DedicatedWorker thread', 4],
      ['10/13', 'DedicatedWorker thread', 0.5],
      ['20/21', 'node', 3.25],
    ]);
    expect(Object.fromEntries(cpuByThreadName(before, after))).toEqual({ 'DedicatedWorker thread': 5.5, node: 0.25 });
  });

  it('leaves out a thread that ended in between instead of counting its time as negative', () => {
    const before = sample([
      ['10/11', 'ServiceWorker thread', 9],
      ['10/12', 'ServiceWorker thread', 2],
    ]);
    const after = sample([['10/12', 'ServiceWorker thread', 3]]);
    expect(Object.fromEntries(cpuByThreadName(before, after))).toEqual({ 'ServiceWorker thread': 1 });
  });
});

describe('benchCpuByThread and largestThreads', () => {
  const sample = (entries: Array<[string, string, number, number?]>) => new Map<string, ThreadCpu>(entries.map(([id, name, seconds, faultedMiB = 0]) => [id, { name, seconds, faultedMiB }]));

  it('names each thread by its side, and leaves the server out where it runs elsewhere', () => {
    const before = { browser: sample([['1/1', 'Chrome_IOThread', 1]]), server: sample([['2/2', 'node', 4]]) };
    const after = { browser: sample([['1/1', 'Chrome_IOThread', 2.5]]), server: sample([['2/2', 'node', 6]]) };
    expect(Object.fromEntries(benchCpuByThread(before, after))).toEqual({ 'browser: Chrome_IOThread': 1.5, 'server: node': 2 });
    expect(Object.fromEntries(benchCpuByThread({ ...before, server: null }, { ...after, server: null }))).toEqual({ 'browser: Chrome_IOThread': 1.5 });
  });

  it('counts the memory each thread faulted in the same way, apart from its CPU', () => {
    const before = { browser: sample([['1/1', 'DedicatedWorker thread', 1, 100], ['1/2', 'ThreadPoolForeg', 2, 50]]), server: sample([['2/2', 'node', 4, 10]]) };
    const after = { browser: sample([['1/1', 'DedicatedWorker thread', 3, 1124], ['1/2', 'ThreadPoolForeg', 5, 60]]), server: sample([['2/2', 'node', 5, 12.5]]) };
    expect(Object.fromEntries(benchFaultsByThread(before, after))).toEqual({ 'browser: DedicatedWorker thread': 1024, 'browser: ThreadPoolForeg': 10, 'server: node': 2.5 });
    expect(Object.fromEntries(benchCpuByThread(before, after))).toEqual({ 'browser: DedicatedWorker thread': 2, 'browser: ThreadPoolForeg': 3, 'server: node': 1 });
  });

  it('rounds to 0.01 s, drops what is under 0.05 s and puts the largest first', () => {
    expect(Object.entries(largestThreads([['a', 0.04], ['b', 2.345], ['c', 6.1]]))).toEqual([['c', 6.1], ['b', 2.35]]);
  });
});
