import { describe, expect, it } from 'vitest';
import { ProgressMeter } from './progressMeter.ts';

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('ProgressMeter', () => {
  it('reports bytes, the rate and the time left', () => {
    const time = clock();
    const meter = new ProgressMeter(100e6, time.now);
    time.advance(1000);
    const progress = meter.update(20e6);
    expect(progress.bytes).toBe(20e6);
    expect(progress.totalBytes).toBe(100e6);
    expect(progress.rateBytesPerSecond).toBeCloseTo(20e6);
    expect(progress.secondsLeft).toBeCloseTo(4);
  });

  it('measures the rate over the last few seconds, not since the start', () => {
    const time = clock();
    const meter = new ProgressMeter(1e9, time.now);
    // 10 s at 10 MB/s, then 5 s at 50 MB/s.
    let bytes = 0;
    for (let i = 0; i < 10; i++) {
      time.advance(1000);
      meter.update((bytes += 10e6));
    }
    let last = meter.update(bytes);
    for (let i = 0; i < 5; i++) {
      time.advance(1000);
      last = meter.update((bytes += 50e6));
    }
    expect(last.rateBytesPerSecond).toBeGreaterThan(40e6);
    expect(last.rateBytesPerSecond).toBeLessThanOrEqual(50e6 + 1);
  });

  it('has no time left while no rate or no total is known', () => {
    const time = clock();
    expect(new ProgressMeter(1000, time.now).update(0).secondsLeft).toBeNull();
    const unknownTotal = new ProgressMeter(0, time.now);
    time.advance(500);
    expect(unknownTotal.update(300).secondsLeft).toBeNull();
  });
});
