import { describe, expect, it } from 'vitest';
import { deletionDue } from './retentionDates.ts';
import { fullerLevel, usageLevel, usedPercent } from './usageLevel.ts';

describe('usage against a limit', () => {
  it('says unlimited, ok, nearly full (90 %) or full', () => {
    expect(usageLevel(5, null)).toBe('unlimited');
    expect(usageLevel(89, 100)).toBe('ok');
    expect(usageLevel(90, 100)).toBe('nearly-full');
    expect(usageLevel(100, 100)).toBe('full');
    expect(usageLevel(150, 100)).toBe('full');
    expect(fullerLevel('ok', 'full')).toBe('full');
    expect(fullerLevel('unlimited', 'nearly-full')).toBe('nearly-full');
    expect(usedPercent(150, 100)).toBe(100);
    expect(usedPercent(1, 3)).toBe(33);
    expect(usedPercent(1, null)).toBeNull();
  });
});

describe('retention dates', () => {
  it('is the upload time plus the days, or none when files are kept', () => {
    expect(deletionDue('2030-01-30T10:00:00.000Z', 3)).toBe('2030-02-02T10:00:00.000Z');
    expect(deletionDue('2030-01-30T10:00:00.000Z', null)).toBeNull();
    expect(deletionDue('not a date', 3)).toBeNull();
  });
});
