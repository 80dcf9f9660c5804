import { describe, expect, it } from 'vitest';
import { addServedRange, coversWhole, MAX_SERVED_RANGES, parseServedRanges } from './served-ranges.ts';

describe('served ranges', () => {
  it('merges overlapping and adjacent pieces and counts only a full cover', () => {
    let ranges = addServedRange([], [0, 1]);
    expect(coversWhole(ranges, 100)).toBe(false);
    ranges = addServedRange(ranges, [50, 100]);
    expect(ranges).toEqual([[0, 1], [50, 100]]);
    expect(coversWhole(ranges, 100)).toBe(false);
    ranges = addServedRange(ranges, [1, 50]);
    expect(ranges).toEqual([[0, 100]]);
    expect(coversWhole(ranges, 100)).toBe(true);
  });

  it('ignores empty pieces', () => {
    expect(addServedRange([[0, 5]], [7, 7])).toEqual([[0, 5]]);
  });

  it('keeps at most MAX_SERVED_RANGES pieces, dropping the smallest (never covering more than was sent)', () => {
    let ranges = addServedRange([], [0, 1000]);
    for (let i = 0; i < MAX_SERVED_RANGES + 4; i++) ranges = addServedRange(ranges, [2000 + i * 10, 2001 + i * 10]);
    expect(ranges).toHaveLength(MAX_SERVED_RANGES);
    expect(ranges[0]).toEqual([0, 1000]);
    expect(coversWhole(ranges, 3000)).toBe(false);
  });

  it('reads garbage as nothing sent', () => {
    for (const stored of ['nope', '{}', '[[1]]', '[[5,2]]', '[["a",3]]']) expect(parseServedRanges(stored)).toEqual([]);
    expect(parseServedRanges(null)).toEqual([]);
    expect(parseServedRanges('[[0,3],[4,9]]')).toEqual([[0, 3], [4, 9]]);
  });
});
