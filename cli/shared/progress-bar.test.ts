// The terminal progress line: bytes, percent, rate and time left once the rate window has a
// second of samples; lines printed above it; nothing at all when stderr is not a terminal.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressBar } from './progress-bar.ts';
import { TransferRate } from './transfer-rate.ts';

function fakeTerminal(isTTY: boolean) {
  const written: string[] = [];
  const stream = { isTTY, columns: 200, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TransferRate', () => {
  it('has no rate in the first second, then bytes per second over the window and the time left', () => {
    let now = 0;
    const rate = new TransferRate(() => now);
    rate.record(0);
    now = 500;
    rate.record(50_000_000);
    expect(rate.bytesPerSecond()).toBeNull();
    now = 2_000;
    rate.record(200_000_000);
    expect(rate.bytesPerSecond()).toBe(100_000_000);
    expect(rate.secondsLeft(300_000_000)).toBe(3);
  });
});

describe('ProgressBar', () => {
  it('draws bytes, percent, rate and time left on a terminal, and prints lines above it', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { stream, written } = fakeTerminal(true);
    const bar = new ProgressBar(stream, 'Uploading 3 files', 1_000_000_000);
    bar.update(0);
    vi.advanceTimersByTime(2_000);
    bar.update(400_000_000);
    const last = written.at(-1)!;
    expect(last).toContain('Uploading 3 files: 400.0 MB of 1.00 GB (40 %), 200.0 MB/s, 3 s left');
    bar.log('stored a.txt (1 B)', stream);
    expect(written).toContain('stored a.txt (1 B)\n');
    expect(written.at(-1)).toContain('400.0 MB of 1.00 GB');
  });

  it('writes nothing when the stream is not a terminal (scripts, --json)', () => {
    const { stream, written } = fakeTerminal(false);
    const bar = new ProgressBar(stream, 'Uploading', 100);
    bar.update(50);
    bar.setNote('trying again in 4 s');
    bar.finish();
    expect(written).toEqual([]);
  });
});
