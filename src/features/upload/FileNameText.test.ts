import { describe, expect, it } from 'vitest';
import { splitForTruncation } from './FileNameText.tsx';

describe('a long file name cut in the middle', () => {
  it('keeps the extension and the characters before it whole, and the parts join to the name', () => {
    const name = 'Interview with the director, uncut, take 12.mov';
    const { head, tail } = splitForTruncation(name);
    expect(head + tail).toBe(name);
    expect(tail).toBe('ake 12.mov');
    expect(tail.endsWith('.mov')).toBe(true);
  });

  it('a long extension is kept with four characters before it', () => {
    const { tail } = splitForTruncation('a-very-long-archive-name-from-the-server.backup-2026');
    expect(tail).toBe('rver.backup-2026');
  });

  it('short names are split at most in half (the head still shows something)', () => {
    expect(splitForTruncation('a.txt')).toEqual({ head: 'a.t', tail: 'xt' });
    expect(splitForTruncation('')).toEqual({ head: '', tail: '' });
  });
});
