import { describe, expect, it } from 'vitest';
import { BatchPacker } from './batchPacker.ts';

const packer = () => new BatchPacker<number>((bytes) => bytes, { maxFiles: 3, maxBytes: 10 });

describe('BatchPacker', () => {
  it('hands out a batch when it reaches maxFiles', () => {
    const p = packer();
    expect(p.add(1)).toEqual([]);
    expect(p.add(1)).toEqual([]);
    expect(p.add(1)).toEqual([[1, 1, 1]]);
    expect(p.rest()).toBeNull();
  });

  it('closes a batch before an item would take it past maxBytes', () => {
    const p = packer();
    p.add(6);
    expect(p.add(4)).toEqual([]);
    expect(p.add(1)).toEqual([[6, 4]]);
    expect(p.rest()).toEqual([1]);
  });

  it('sends an item larger than maxBytes alone rather than never', () => {
    const p = packer();
    p.add(2);
    expect(p.add(25)).toEqual([[2]]);
    expect(p.add(1)).toEqual([[25]]);
    expect(p.rest()).toEqual([1]);
  });
});
