// @vitest-environment jsdom
// The remembered head of a folder's chain: per account and folder, never moved back, and ignored
// when what is stored is not a head (a value another version of the app, or a person, wrote).
import { beforeEach, describe, expect, it } from 'vitest';
import { readSeenChain, rememberSeenChain } from './seenChain.ts';

const hash = (c: string) => c.repeat(64);

describe('seen chain', () => {
  beforeEach(() => localStorage.clear());

  it('remembers per account and folder, and only moves forward', () => {
    expect(readSeenChain(1, 10)).toBeNull();
    rememberSeenChain(1, 10, { firstHash: hash('a'), seq: 3, headHash: hash('c') });
    rememberSeenChain(1, 10, { firstHash: hash('a'), seq: 2, headHash: hash('b') });
    expect(readSeenChain(1, 10)).toEqual({ firstHash: hash('a'), seq: 3, headHash: hash('c') });
    expect(readSeenChain(2, 10)).toBeNull();
    expect(readSeenChain(1, 11)).toBeNull();
  });

  it('reads nothing from a stored value that is not a head', () => {
    localStorage.setItem('sealdrop.team-seen.1.10', JSON.stringify({ firstHash: 'xyz', seq: 2 }));
    expect(readSeenChain(1, 10)).toBeNull();
    localStorage.setItem('sealdrop.team-seen.1.10', JSON.stringify({ firstHash: hash('a'), seq: 2, headHash: 'short' }));
    expect(readSeenChain(1, 10)).toBeNull();
    localStorage.setItem('sealdrop.team-seen.1.10', '{not json');
    expect(readSeenChain(1, 10)).toBeNull();
  });
});
