// Printing and analysis for bench/crypto.ts. Throughput on this shared 2-core machine depends on
// what else runs; CPU time per MB does not, so each phase is also compared by CPU cost with the sum
// of its parts (reading the file, SHA-256, AES-GCM) measured in the same run.
import type { SmallFileDigestRow } from '../e2e/crypto-harness/harness-types.ts';
import { formatThreads } from './process-tree.ts';

export interface Rate {
  /** Wall-clock rate of the measurement loop (lowered by anything else running on the machine). */
  readonly wallMBps: number;
  /** Browser CPU time per MB: the cost, largely independent of other load. */
  readonly cpuMsPerMB: number;
  /** 1000 / cpuMsPerMB: what one free core does. This is the limit the pool is compared with. */
  readonly perCoreMBps: number;
  /** Browser CPU-ms per MB by thread name (absent where only the total was measured). */
  readonly cpuMsPerMBByThread?: Record<string, number>;
  /** MiB of memory faulted in per MB, by the same names. */
  readonly faultedMiBPerMBByThread?: Record<string, number>;
}

export interface Limits {
  readonly recordSize: number;
  readonly aesEncrypt: Rate;
  readonly aesDecrypt: Rate;
  readonly sha256: Rate;
  /** Reading a File with Blob.stream(), as the pool does (browser and renderer process together). */
  readonly read: Rate;
  readonly smallFileDigest: SmallFileDigestRow[];
  readonly aesByCallSize: { readonly callBytes: number; readonly encrypt: Rate; readonly decrypt: Rate }[];
}

/** What one phase measured, before it is set against a limit (phaseAgainst). */
export type MeasuredPhase = Omit<PhaseResult, 'limitMBps' | 'ratio'>;

export interface PhaseResult {
  readonly name: string;
  readonly kind: 'encrypt' | 'decrypt';
  readonly plainBytes: number;
  readonly runsMBps: number[];
  readonly medianMBps: number;
  readonly limitMBps: number;
  readonly ratio: number;
  /** Browser CPU time (all processes) per MB processed, median over runs. */
  readonly cpuMsPerMB: number;
  /** Average number of cores the browser kept busy (CPU seconds / wall seconds). */
  readonly browserCores: number;
  /** Average number of browser threads that were runnable but waiting for a CPU (contention). */
  readonly waitingCores: number;
  readonly peakRssMiB: number;
  readonly peakPssMiB: number;
  readonly idleRssMiB: number;
  /** Browser CPU-ms per MB by thread name ("browser: <thread>"), averaged over the runs. */
  readonly cpuMsPerMBByThread: Record<string, number>;
  /** MiB of memory faulted in per MB, by the same names, averaged over the runs. */
  readonly faultedMiBPerMBByThread: Record<string, number>;
}

export interface PhaseAnalysis {
  readonly name: string;
  /** CPU ms per MB of the parts: reading + (SHA-256) + AES-GCM, each at its measured rate. */
  readonly partsCpuMsPerMB: number;
  readonly overheadPercent: number;
  /** What the measured CPU cost allows with every core free for the browser. */
  readonly freeCoresCapacityMBps: number;
  /**
   * What the parts' CPU allows: every core busy with nothing but the parts (cores / partsCpuMsPerMB),
   * and no more than the phase's own limit (one file's SHA-256 is sequential: one core).
   */
  readonly partsLimitMBps: number;
  /** freeCoresCapacityMBps / partsLimitMBps, at most 1: how little the pipeline adds to its parts. */
  readonly capacityRatio: number;
  /**
   * The same against the phase's limit alone, which leaves out reading the file (what this field
   * was before): for eight files at once, cores / (SHA-256 + AES-GCM) while the phase also reads,
   * so even a pipeline costing exactly its parts stays near (SHA-256 + AES-GCM) / parts here.
   */
  readonly capacityToLimitRatio: number;
}

/** capacityRatio of the eight files at once must reach this. */
export const MANY_FILES_CAPACITY_TARGET = 0.85;

/** The four limits a phase's parts are made of. */
const PART_LIMITS = ['aesEncrypt', 'aesDecrypt', 'sha256', 'read'] as const;

/** Two per-thread splits averaged, a thread missing from one counting as 0 there. */
function meanByThread(a: Record<string, number> = {}, b: Record<string, number> = {}): Record<string, number> {
  const threads = new Set([...Object.keys(a), ...Object.keys(b)]);
  return Object.fromEntries([...threads].map((thread) => [thread, Number((((a[thread] ?? 0) + (b[thread] ?? 0)) / 2).toFixed(2))]));
}

function meanRate(a: Rate, b: Rate): Rate {
  const cpuMsPerMB = Number(((a.cpuMsPerMB + b.cpuMsPerMB) / 2).toFixed(2));
  return {
    wallMBps: Math.round((a.wallMBps + b.wallMBps) / 2),
    cpuMsPerMB,
    perCoreMBps: Math.round(1000 / cpuMsPerMB),
    cpuMsPerMBByThread: meanByThread(a.cpuMsPerMBByThread, b.cpuMsPerMBByThread),
    faultedMiBPerMBByThread: meanByThread(a.faultedMiBPerMBByThread, b.faultedMiBPerMBByThread),
  };
}

/**
 * The limits at the middle of the run: each part the mean of its measurement before the phases and
 * its measurement after them. The phases run between the two, and the machine's speed drifts over a
 * run (fresh memory is dearest minutes after a boot and moves with what the host has taken back:
 * docs/operations.md, "The limits, measured before and after the phases"), so limits measured only
 * before the phases flattered or harmed every ratio by whatever the machine did meanwhile. The
 * mean, not the cheaper of the two: that would take the machine at its fastest and lower every
 * ratio by the noise alone.
 */
export function limitsAcrossTheRun(before: Limits, after: Limits): Limits {
  const parts = Object.fromEntries(PART_LIMITS.map((part) => [part, meanRate(before[part], after[part])]));
  return { ...before, ...parts } as Limits;
}

/** A measured phase against its limit (one file: SHA-256 on one core; eight: the pool's; decrypt: AES-GCM's). */
export function phaseAgainst(phase: MeasuredPhase, limitMBps: number): PhaseResult {
  return { ...phase, limitMBps: Math.round(limitMBps), ratio: Number((phase.medianMBps / limitMBps).toFixed(2)) };
}

const pad = (text: string | number, width: number) => String(text).padStart(width);

const rate = (r: Rate) => `${pad(r.perCoreMBps, 5)} MB/s per core (${r.cpuMsPerMB.toFixed(2)} CPU-ms/MB; wall ${pad(r.wallMBps, 4)} MB/s)`;

/** `title` says which measurement: before the phases, after them, or the two joined. */
export function printLimits(limits: Limits, title: string): void {
  console.log(`${title} (per free core = 1000 / CPU-ms per MB):`);
  console.log(`  AES-256-GCM encrypt  ${rate(limits.aesEncrypt)}   ${limits.recordSize / 1024} KiB calls`);
  console.log(`  AES-256-GCM decrypt  ${rate(limits.aesDecrypt)}`);
  console.log(`  SHA-256 (hash-wasm)  ${rate(limits.sha256)}   incremental, ${limits.recordSize / 1024} KiB updates`);
  console.log(`  reading a File       ${rate(limits.read)}   Blob.stream(), browser + renderer process`);
  for (const [name, limit] of [['AES-256-GCM encrypt', limits.aesEncrypt], ['AES-256-GCM decrypt', limits.aesDecrypt], ['SHA-256', limits.sha256], ['reading a File', limits.read]] as const) {
    const line = formatThreads(limit.cpuMsPerMBByThread ?? {}, 6, 'MB');
    if (line) console.log(`    ${name}: ${line}`);
    const faults = formatThreads(limit.faultedMiBPerMBByThread ?? {}, 4, 'MB', 'faultedMiB');
    if (faults) console.log(`    ${name}: ${faults}`);
  }
  if (limits.smallFileDigest.length > 0) console.log('  whole-file SHA-256 of small files: one-shot crypto.subtle.digest vs hash-wasm (wall)');
  for (const row of limits.smallFileDigest) {
    console.log(`    ${pad(row.bytes / 1024, 6)} KiB   digest ${pad(row.oneShotMBps.toFixed(0), 5)} MB/s   hash-wasm ${pad(row.hashWasmMBps.toFixed(0), 4)} MB/s`);
  }
  if (limits.aesByCallSize.length > 0) {
    console.log('  AES-256-GCM per call size (the record size choice):');
    for (const row of limits.aesByCallSize) {
      console.log(`    ${pad(row.callBytes / 1024, 6)} KiB   encrypt ${rate(row.encrypt)}   decrypt ${rate(row.decrypt)}`);
    }
  }
  console.log('');
}

export function analyse(phases: readonly PhaseResult[], limits: Limits, cores: number): PhaseAnalysis[] {
  const sha = limits.sha256.cpuMsPerMB;
  const read = limits.read.cpuMsPerMB;
  return phases.map((phase) => {
    const parts = phase.kind === 'encrypt' ? read + sha + limits.aesEncrypt.cpuMsPerMB : read + limits.aesDecrypt.cpuMsPerMB;
    const capacity = (cores * 1000) / phase.cpuMsPerMB;
    const partsLimit = Math.min(phase.limitMBps, (cores * 1000) / parts);
    return {
      name: phase.name,
      partsCpuMsPerMB: Number(parts.toFixed(2)),
      overheadPercent: Math.round(((phase.cpuMsPerMB - parts) / parts) * 100),
      freeCoresCapacityMBps: Math.round(capacity),
      partsLimitMBps: Math.round(partsLimit),
      capacityRatio: Number((Math.min(capacity, partsLimit) / partsLimit).toFixed(2)),
      capacityToLimitRatio: Number((Math.min(capacity, phase.limitMBps) / phase.limitMBps).toFixed(2)),
    };
  });
}

export function printPhases(phases: readonly PhaseResult[], analysis: readonly PhaseAnalysis[], cores: number): void {
  console.log('\nPool throughput (median of runs), its ratio to the limit, CPU cost and browser peak memory:');
  for (const p of phases) {
    console.log(
      `  ${p.name.padEnd(50)} ${pad(p.medianMBps, 5)} MB/s  limit ${pad(p.limitMBps, 5)}  ratio ${p.ratio.toFixed(2)}  ` +
        `cores ${p.browserCores.toFixed(2)} (+${p.waitingCores.toFixed(2)} waiting)  ${p.cpuMsPerMB.toFixed(2)} CPU-ms/MB  peak RSS ${p.peakRssMiB} MiB (PSS ${p.peakPssMiB}, idle RSS ${p.idleRssMiB})`,
    );
  }
  console.log('  limits: one file = SHA-256 on one core; many files = cores / (1/sha + 1/aes); decrypt = AES-GCM decrypt on one core');
  console.log('  cores: browser CPU time / wall time; waiting: browser threads runnable but without a CPU (taken by other processes, or more runnable threads than cores)\n');
  console.log(`CPU cost against the sum of its parts (read + SHA-256 + AES-GCM), and what it allows on ${cores} free cores:`);
  for (const a of analysis) {
    const p = phases.find((x) => x.name === a.name)!;
    const target = isManyFilesPhase(a.name) ? ` (target >= ${MANY_FILES_CAPACITY_TARGET})` : '';
    console.log(
      `  ${a.name.padEnd(50)} ${p.cpuMsPerMB.toFixed(2)} vs parts ${a.partsCpuMsPerMB.toFixed(2)} CPU-ms/MB (overhead ${a.overheadPercent}%)  ` +
        `-> at most ${pad(a.freeCoresCapacityMBps, 4)} MB/s, capacityRatio ${a.capacityRatio.toFixed(2)} of what the parts allow (${pad(a.partsLimitMBps, 4)} MB/s)${target}; ` +
        `${a.capacityToLimitRatio.toFixed(2)} of the phase's limit alone`,
    );
  }
}

/** The phase of eight files hashed and encrypted at once (bench/crypto.ts names it so). */
export const isManyFilesPhase = (name: string): boolean => /^hash\+encrypt eight /.test(name);
