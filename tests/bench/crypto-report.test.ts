import { describe, expect, it } from 'vitest';
import { analyse, isManyFilesPhase, type Limits, type PhaseResult } from '../../bench/report.ts';

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
