import { describe, expect, it } from 'vitest';
import { formatBytes } from './formatBytes.ts';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;
const TB = 1024 * GB;

describe('formatBytes', () => {
  it('writes sizes under 1 KB as whole bytes, whatever the decimals', () => {
    for (const decimals of ['oneDecimal', 'wholeFrom100', 'twoBelow10GB'] as const) {
      expect(formatBytes(0, decimals)).toBe('0 B');
      expect(formatBytes(1023, decimals)).toBe('1023 B');
    }
  });

  it('uses the largest binary unit up to TB', () => {
    expect(formatBytes(1024, 'oneDecimal')).toBe('1.0 KB');
    expect(formatBytes(1.5 * MB, 'oneDecimal')).toBe('1.5 MB');
    expect(formatBytes(2 * GB, 'oneDecimal')).toBe('2.0 GB');
    expect(formatBytes(3 * TB, 'oneDecimal')).toBe('3.0 TB');
    expect(formatBytes(2048 * TB, 'oneDecimal')).toBe('2048.0 TB');
  });

  it('oneDecimal: always one decimal (the files screen)', () => {
    expect(formatBytes(300 * MB, 'oneDecimal')).toBe('300.0 MB');
    expect(formatBytes(5120 * MB, 'oneDecimal')).toBe('5.0 GB');
    expect(formatBytes(1536, 'oneDecimal')).toBe('1.5 KB');
  });

  it('wholeFrom100: one decimal below 100, none from 100 (the upload page)', () => {
    expect(formatBytes(99.9 * MB, 'wholeFrom100')).toBe('99.9 MB');
    expect(formatBytes(300 * MB, 'wholeFrom100')).toBe('300 MB');
    expect(formatBytes(5120 * MB, 'wholeFrom100')).toBe('5.0 GB');
  });

  it('twoBelow10GB: two decimals for GB and TB below 10, otherwise one (the download-link page)', () => {
    expect(formatBytes(1536, 'twoBelow10GB')).toBe('1.5 KB');
    expect(formatBytes(5.5 * MB, 'twoBelow10GB')).toBe('5.5 MB');
    expect(formatBytes(4.8 * GB, 'twoBelow10GB')).toBe('4.80 GB');
    expect(formatBytes(12.3 * GB, 'twoBelow10GB')).toBe('12.3 GB');
    expect(formatBytes(1.25 * TB, 'twoBelow10GB')).toBe('1.25 TB');
  });
});
