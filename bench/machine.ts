/**
 * npx tsx bench/machine.ts: one line saying what kind of machine this is, which `.ci/run` prints
 * before its tests. CI's time and the benchmarks' ratios depend on it more than on the code: the
 * same commit's CI took 19.7 min on a KVM guest and 48-52 min on a PVM guest, whose host makes
 * fresh memory and cross-core TLB flushes several times dearer (docs/operations.md, "Another PVM
 * machine, and where its CPU goes in the browser specs"), and two KVM guests of the same CPU model
 * differed two-fold in the speed of one core (core-speed.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { coreSha256MBps, describeCoreSpeed } from './core-speed.ts';
import { describeFreshMemory, freshMemoryMsPerMiB } from './fresh-memory.ts';

/** What the kernel log says about the hypervisor ("PVM", "KVM"), or undefined when it says nothing. */
export function hypervisorFromKernelLog(kernelLog: string): string | undefined {
  return /Hypervisor detected: ([^\r\n]+)/.exec(kernelLog)?.[1]?.trim();
}

/** The selected mode of a sysfs switch written as "always [madvise] never", or undefined. */
export function selectedMode(sysfsSwitch: string): string | undefined {
  return /\[([^\]]+)\]/.exec(sysfsSwitch)?.[1];
}

function readOrEmpty(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}

function hypervisor(): string {
  // The kernel log may be closed to non-root users (dmesg_restrict); CI runs as root.
  const named = hypervisorFromKernelLog(readOrEmpty(() => execFileSync('dmesg', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })));
  if (named) return named;
  const flagged = /^flags\s*:.*\bhypervisor\b/m.test(readOrEmpty(() => readFileSync('/proc/cpuinfo', 'utf8')));
  return flagged ? 'present, kind not in the kernel log' : 'none reported';
}

/** The largest buddy order the kernel has on x86-64 (MAX_PAGE_ORDER): a reporting order above it reports nothing. */
const MAX_PAGE_ORDER = 10;

/**
 * Whether the guest hands freed memory back to its host (virtio-balloon free page reporting), from
 * /sys/module/page_reporting/parameters/page_reporting_order. Where it is on, memory touched again
 * after the host took it back faults in on the host, so every copy into fresh memory (the page
 * cache, WebCrypto's results) costs more the longer ago that memory was freed: the largest swing in
 * the benchmarks' references (docs/operations.md, "Free page reporting and cache paged out").
 */
export function describePageReporting(reportingOrder: string): string {
  const order = Number.parseInt(reportingOrder, 10);
  if (!Number.isInteger(order)) return 'free page reporting: none';
  if (order > MAX_PAGE_ORDER) return 'free page reporting: off';
  return `free page reporting: on (freed blocks of ${2 ** order * 4} KiB go back to the host)`;
}

/** This machine's reporting state as describePageReporting words it; the benchmarks print it and keep it in their JSON. */
export function pageReporting(): string {
  return describePageReporting(readOrEmpty(() => readFileSync('/sys/module/page_reporting/parameters/page_reporting_order', 'utf8')));
}

/** E.g. "AMD EPYC, 2 cores, hypervisor PVM, transparent huge pages madvise; one core: ...; fresh memory: ...". */
export async function describeMachine(): Promise<string> {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const hugePages = selectedMode(readOrEmpty(() => readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))) ?? 'unknown';
  const coreSpeed = describeCoreSpeed(await coreSha256MBps());
  return `${model}, ${cpus().length} cores, hypervisor ${hypervisor()}, transparent huge pages ${hugePages}, ${pageReporting()}; ${coreSpeed}; ${describeFreshMemory(freshMemoryMsPerMiB())}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`Machine: ${await describeMachine()}`);
