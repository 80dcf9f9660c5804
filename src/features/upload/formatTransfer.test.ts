import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../lib/formatBytes.ts';
import { formatTimeLeft, transferLine } from './formatTransfer.ts';

describe('formatTransfer', () => {
  it('formats sizes in binary units, with no decimal from 100 up (the upload page)', () => {
    expect(formatBytes(512, 'wholeFrom100')).toBe('512 B');
    expect(formatBytes(1536, 'wholeFrom100')).toBe('1.5 KB');
    expect(formatBytes(5120 * 1024 * 1024, 'wholeFrom100')).toBe('5.0 GB');
    expect(formatBytes(300 * 1024 * 1024, 'wholeFrom100')).toBe('300 MB');
  });

  it('formats time left', () => {
    expect(formatTimeLeft(2.2)).toBe('3 s left');
    expect(formatTimeLeft(125)).toBe('2 min 5 s left');
    expect(formatTimeLeft(3 * 3600 + 120)).toBe('3 h 2 min left');
    expect(formatTimeLeft(null)).toBeNull();
  });

  it('joins bytes, rate and time left, leaving out what is unknown', () => {
    expect(transferLine(1024 * 1024, 10 * 1024 * 1024, 2 * 1024 * 1024, 4.5)).toBe('1.0 MB of 10.0 MB · 2.0 MB/s · 5 s left');
    expect(transferLine(0, 2048, null, null)).toBe('0 B of 2.0 KB');
  });
});
