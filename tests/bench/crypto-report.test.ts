import { describe, expect, it } from 'vitest';
import { analyse, isManyFilesPhase, limitsAcrossTheRun, phaseAgainst, type Limits, type PhaseResult } from '../../bench/report.ts';

const rate = (cpuMsPerMB: number) => ({ wallMBps: Math.round(1000 / cpuMsPerMB), cpuMsPerMB, perCoreMBps: Math.round(1000 / cpuMsPerMB) });
/** A run's limits as bench:crypto measured them on the 2-core machine: SHA-256 3.65, AES-GCM 2.08 / 1.90, read 2.75 CPU-ms/MB. */
const limits: Limits = { recordSize: 262_144, aesEncrypt: rate(2.08), aesDecrypt: rate(1.9), sha256: rate(3.65), read: rate(2.75), smallFileDigest: [], aesByCallSize: [] };

function phase(name: string, kind: PhaseResult['kind'], cpuMsPerMB: number, limitMBps: number): PhaseResult {
  return { name, kind, plainBytes: 1, runsMBps: [], medianMBps: 0, limitMBps, ratio: 0, cpuMsPerMB, browserCores: 0, waitingCores: 0, peakRssMiB: 0, peakPssMiB: 0, idleRssMiB: 0, cpuMsPerMBByThread: {}, faultedMiBPerMBByThread: {} };
}

describe("bench:crypto's capacityRatio", () => {
  const manyLimit = 2 / (1 / 274 + 1 / 481);

  it('is 1 for eight files that cost exactly their parts (read included), where the limit without the read stays at 0.68', () => {
    const [many] = analyse([phase('hash+encrypt eight 128 MiB files at once', 'encrypt', 2.75 + 3.65 + 2.08, manyLimit)], limits, 2);
    expect(many!.capacityRatio).toBe(1);
    expect(many!.capacityToLimitRatio).toBeCloseTo(0.68, 2);
    expect(many!.partsLimitMBps).toBe(Math.round(2000 / 8.48));
  });

  it('falls with the overhead over the parts: 32 % more CPU than the parts is 0.76', () => {
    const [many] = analyse([phase('hash+encrypt eight 128 MiB files at once', 'encrypt', 8.48 * 1.32, manyLimit)], limits, 2);
    expect(many!.overheadPercent).toBe(32);
    expect(many!.capacityRatio).toBe(0.76);
  });

  it("keeps one file's sequential limit (SHA-256 on one core) where it is below what the cores allow", () => {
    const [one] = analyse([phase('hash+encrypt one 1 GiB file', 'encrypt', 6, 150)], limits, 2);
    expect(one!.partsLimitMBps).toBe(150);
    expect(one!.capacityRatio).toBe(1);
  });

  it('names the eight-file phase as bench:crypto does', () => {
    expect(isManyFilesPhase('hash+encrypt eight 128 MiB files at once')).toBe(true);
    expect(isManyFilesPhase('hash+encrypt eight 2 MiB files at once')).toBe(true);
    expect(isManyFilesPhase('hash+encrypt one 1 GiB file')).toBe(false);
  });
});

describe("bench:crypto's limits, measured before and after the phases", () => {
  const eight = (cpuMsPerMB: number) => phase('hash+encrypt eight 128 MiB files at once', 'encrypt', cpuMsPerMB, 600);

  it('takes each part at the mean of its two measurements, so a limit measured while fresh memory was dear flatters the phases half as much', () => {
    // The first limit measured minutes after a boot: AES-GCM encrypt at 1.00 CPU-ms/MB, 0.56 after the phases.
    const before: Limits = { ...limits, aesEncrypt: rate(1.0), sha256: rate(2.37), read: rate(1.24) };
    const after: Limits = { ...limits, aesEncrypt: rate(0.56), sha256: rate(2.41), read: rate(1.3), smallFileDigest: [] };
    const across = limitsAcrossTheRun(before, after);
    expect(across.aesEncrypt).toMatchObject({ cpuMsPerMB: 0.78, perCoreMBps: 1282 });
    expect(across.sha256.cpuMsPerMB).toBe(2.39);
    expect(across.read.cpuMsPerMB).toBe(1.27);
    expect(across.aesDecrypt.cpuMsPerMB).toBe(1.9);
    const [beforeOnly] = analyse([eight(5.04)], before, 2);
    const [middle] = analyse([eight(5.04)], across, 2);
    const [afterOnly] = analyse([eight(5.04)], after, 2);
    expect([beforeOnly!.capacityRatio, middle!.capacityRatio, afterOnly!.capacityRatio]).toEqual([0.91, 0.88, 0.85]);
  });

  it("averages the split by thread, a thread seen in one measurement only counting half", () => {
    const before: Limits = { ...limits, read: { ...rate(1.2), cpuMsPerMBByThread: { 'browser: DedicatedWorker': 0.5, 'browser: Chrome_IOThread': 0.3 } } };
    const after: Limits = { ...limits, read: { ...rate(1.0), cpuMsPerMBByThread: { 'browser: DedicatedWorker': 0.4 } } };
    expect(limitsAcrossTheRun(before, after).read.cpuMsPerMBByThread).toEqual({ 'browser: DedicatedWorker': 0.45, 'browser: Chrome_IOThread': 0.15 });
  });

  it("keeps the first measurement's small-file digests, which the second does not take", () => {
    const digests = [{ bytes: 65_536, oneShotMBps: 1800, hashWasmMBps: 417 }];
    expect(limitsAcrossTheRun({ ...limits, smallFileDigest: digests }, { ...limits, smallFileDigest: [] }).smallFileDigest).toEqual(digests);
  });

  it('sets a phase against its limit once the limits are known', () => {
    const { limitMBps: _limit, ratio: _ratio, ...measured } = { ...eight(5), medianMBps: 367 };
    expect(phaseAgainst(measured, 669.4)).toMatchObject({ limitMBps: 669, ratio: 0.55 });
  });
});
