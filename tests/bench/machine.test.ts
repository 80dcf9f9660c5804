import { describe, expect, it } from 'vitest';
import { coreSha256MBps, describeCoreSpeed } from '../../bench/core-speed.ts';
import { median } from '../../bench/median.ts';
import { describePageReporting, hypervisorFromKernelLog, selectedMode } from '../../bench/machine.ts';

describe('the machine line CI prints', () => {
  it('names the hypervisor the kernel log reports, and nothing when it reports none', () => {
    const log = '[    0.000000] Linux version 6.18.44\n[    0.000000] Hypervisor detected: PVM\n[    0.000001] tsc: Fast TSC calibration\n';
    expect(hypervisorFromKernelLog(log)).toBe('PVM');
    expect(hypervisorFromKernelLog('[    0.000000] Hypervisor detected: KVM\r\n')).toBe('KVM');
    expect(hypervisorFromKernelLog('[    0.000000] Linux version 6.1.0\n')).toBeUndefined();
    expect(hypervisorFromKernelLog('')).toBeUndefined();
  });

  it("says whether freed memory goes back to the host, from the kernel's reporting order", () => {
    expect(describePageReporting('9\n')).toBe('free page reporting: on (freed blocks of 2048 KiB go back to the host)');
    expect(describePageReporting('10')).toBe('free page reporting: on (freed blocks of 4096 KiB go back to the host)');
    expect(describePageReporting('11\n')).toBe('free page reporting: off');
    expect(describePageReporting('')).toBe('free page reporting: none');
  });

  it('reads the bracketed choice of a sysfs switch', () => {
    expect(selectedMode('always [madvise] never\n')).toBe('madvise');
    expect(selectedMode('[always] madvise never')).toBe('always');
    expect(selectedMode('')).toBeUndefined();
  });
});

describe('the core speed CI prints', () => {
  it('takes the median of the timed passes, whatever their order, without reordering them', () => {
    const rates = [400, 120, 410, 405, 390];
    expect(median(rates)).toBe(400);
    expect(rates).toEqual([400, 120, 410, 405, 390]);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([7])).toBe(7);
  });

  it('measures a positive rate and says what it measured', async () => {
    const rate = await coreSha256MBps();
    expect(rate).toBeGreaterThan(0);
    expect(describeCoreSpeed(rate)).toBe(`one core: SHA-256 (hash-wasm, Node) ${rate} MB/s`);
  });
});
