import { describe, expect, it } from 'vitest';
import { resolveRange } from './byte-range.ts';

describe('resolveRange', () => {
  it('serves everything without a usable header', () => {
    for (const header of [undefined, '', 'bytes=', 'bytes=-', 'items=0-1', 'bytes=0-1,4-5', 'bytes=5-2', 'bytes=a-b']) {
      expect(resolveRange(header, 100), String(header)).toEqual({ kind: 'full' });
    }
  });

  it('resolves a closed, an open and a suffix range', () => {
    expect(resolveRange('bytes=10-19', 100)).toEqual({ kind: 'partial', start: 10, end: 19 });
    expect(resolveRange('bytes=90-', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(resolveRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(resolveRange('bytes=-500', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(resolveRange('bytes=95-500', 100)).toEqual({ kind: 'partial', start: 95, end: 99 });
    expect(resolveRange(' bytes = 0 - 0 ', 100)).toEqual({ kind: 'partial', start: 0, end: 0 });
  });

  it('refuses ranges that start past the end', () => {
    expect(resolveRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(resolveRange('bytes=100-200', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(resolveRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(resolveRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});
