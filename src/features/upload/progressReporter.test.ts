import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressReporter } from './progressReporter.ts';
import { RateMeter, secondsLeft } from '../../lib/transferRate.ts';
import type { OverallProgress, QueuePatch } from './uploadQueueSlice.ts';

describe('RateMeter', () => {
  it('measures bytes per second over its window and restarts when the value goes back', () => {
    const meter = new RateMeter(4000);
    meter.add(0, 0);
    expect(meter.rate()).toBeNull();
    meter.add(1000, 10_000_000);
    meter.add(2000, 20_000_000);
    expect(meter.rate()).toBe(10_000_000);
    meter.add(3000, 5_000_000);
    expect(meter.rate()).toBeNull();
  });

  it('gives no rate in the first second, when a pipeline still filling would predict hours', () => {
    const meter = new RateMeter(4000);
    meter.add(0, 0);
    meter.add(300, 1_000);
    meter.add(900, 2_000);
    expect(meter.rate()).toBeNull();
    meter.add(1000, 3_000_000);
    expect(meter.rate()).toBe(3_000_000);
  });

  it('gives no rate while nothing has moved', () => {
    const meter = new RateMeter(4000);
    meter.add(0, 500);
    meter.add(2000, 500);
    expect(meter.rate()).toBeNull();
  });

  it('gives the time left at the current rate', () => {
    expect(secondsLeft(100, 50)).toBe(2);
    expect(secondsLeft(0, null)).toBe(0);
    expect(secondsLeft(100, null)).toBeNull();
  });
});

describe('ProgressReporter', () => {
  let clock = 0;
  let flushes: Array<{ patches: QueuePatch[]; overall: OverallProgress }> = [];
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
    flushes = [];
  });
  afterEach(() => vi.useRealTimers());

  const reporter = () =>
    new ProgressReporter(
      [
        { id: 'a', size: 1000 },
        { id: 'b', size: 3000 },
      ],
      (patches, overall) => flushes.push({ patches, overall }),
      () => clock,
    );

  it('passes many events to the store as a few batches', () => {
    const r = reporter();
    for (let i = 1; i <= 100; i++) {
      clock = i * 10; // 100 events over one second
      r.progress('b', i / 100);
    }
    expect(flushes.length).toBeLessThanOrEqual(5);
    vi.advanceTimersByTime(300);
    const last = flushes[flushes.length - 1]!;
    expect(last.patches.find((p) => p.id === 'b')!.changes).toMatchObject({ progress: 100, bytesSent: 3000 });
  });

  it('keeps the last state through a trailing flush', () => {
    const r = reporter();
    r.change('a', { status: 'uploading' });
    clock = 100;
    r.progress('a', 0.5);
    expect(flushes).toHaveLength(1);
    vi.advanceTimersByTime(250);
    expect(flushes).toHaveLength(2);
    expect(flushes[1]!.patches[0]!.changes).toMatchObject({ progress: 50, bytesSent: 500 });
  });

  it('counts stored files as sent and leaves failed ones out of the total', () => {
    const r = reporter();
    r.finish('a', { status: 'success' }, true);
    r.finish('b', { status: 'error', error: 'x' }, false);
    r.flush();
    const last = flushes[flushes.length - 1]!;
    expect(last.overall).toMatchObject({ filesTotal: 2, filesDone: 2, bytesTotal: 1000, bytesSent: 1000 });
    const changesOfA = Object.assign({}, ...flushes.flatMap((f) => f.patches.filter((p) => p.id === 'a').map((p) => p.changes)));
    expect(changesOfA).toMatchObject({ status: 'success', progress: 100 });
  });

  it('shows no rate or time left while a file waits for the network, for the row and overall', () => {
    const r = reporter();
    for (let i = 1; i <= 20; i++) {
      clock = i * 100;
      r.progress('b', i / 40);
    }
    r.flush();
    expect(flushes[flushes.length - 1]!.overall.bytesPerSecond).toBeGreaterThan(0);
    const seen = flushes.length;
    clock = 2500;
    r.change('b', { waitingForNetwork: true });
    r.flush();
    const changesOfB = Object.assign({}, ...flushes.slice(seen).flatMap((f) => f.patches.filter((p) => p.id === 'b').map((p) => p.changes)));
    expect(changesOfB).toMatchObject({ waitingForNetwork: true, bytesPerSecond: null, secondsLeft: null });
    expect(flushes[flushes.length - 1]!.overall).toMatchObject({ bytesPerSecond: null, secondsLeft: null });
  });

  it('lowers the rate when progress stalls, without waiting for the next progress event', () => {
    const r = reporter();
    for (let i = 1; i <= 20; i++) {
      clock = i * 100;
      r.progress('b', i / 40);
    }
    r.flush();
    const before = flushes[flushes.length - 1]!.patches.find((p) => p.id === 'b')!.changes.bytesPerSecond!;
    clock = 5000;
    r.flush();
    const after = flushes[flushes.length - 1]!.patches.find((p) => p.id === 'b')!.changes.bytesPerSecond!;
    expect(after).toBeLessThan(before / 2);
  });
});
