/**
 * What a phase's CPU cost allows: measured cores busy at a measured rate give CPU seconds per MB,
 * and `cores` at that cost allow `cores / cost`. A phase at its bound keeps every core busy; one
 * below it leaves cores idle (waits between its stages), one whose bound is below a reference is
 * held back by the work it does, not by waiting. Used by bench:upload (the encrypted upload) and
 * bench:download (the direct save).
 */
export interface CpuBound {
  readonly coreSecondsPerGiB: number;
  readonly cpuBoundMBps: number;
}

/** null without a rate or without CPU (a figure that cannot be a cost). */
export function cpuBoundOf(coresBusy: number, mbps: number, cores: number): CpuBound | null {
  if (mbps <= 0 || coresBusy <= 0 || cores <= 0) return null;
  const coreSecondsPerMB = coresBusy / mbps;
  return { coreSecondsPerGiB: Number(((coreSecondsPerMB * 1024 ** 3) / 1e6).toFixed(1)), cpuBoundMBps: Math.round(cores / coreSecondsPerMB) };
}
