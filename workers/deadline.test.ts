import { describe, expect, it, vi } from 'vitest';
import { settleWithin } from './deadline.ts';

class Late extends Error {
  readonly code = 'LATE';
}

describe('settleWithin', () => {
  it('passes a value or a rejection that comes in time, and calls nothing late', async () => {
    const late = vi.fn();
    await expect(settleWithin(Promise.resolve(7), 50, () => new Late(), late)).resolves.toBe(7);
    await expect(settleWithin(Promise.reject(new RangeError('no')), 50, () => new Late(), late)).rejects.toBeInstanceOf(RangeError);
    expect(late).not.toHaveBeenCalled();
  });

  it('rejects with the given error when the work never settles', async () => {
    await expect(settleWithin(new Promise<number>(() => undefined), 20, () => new Late())).rejects.toBeInstanceOf(Late);
  });

  it('hands a value that arrives after the limit to `late` (to release what it holds), and swallows a late rejection', async () => {
    let answer!: (value: string) => void;
    let refuse!: (error: Error) => void;
    const late = vi.fn();
    const first = settleWithin(new Promise<string>((resolve) => (answer = resolve)), 10, () => new Late(), late);
    const second = settleWithin(new Promise<string>((_, reject) => (refuse = reject)), 10, () => new Late(), late);
    await expect(first).rejects.toBeInstanceOf(Late);
    await expect(second).rejects.toBeInstanceOf(Late);
    answer('handle');
    refuse(new Error('gone'));
    await vi.waitFor(() => expect(late).toHaveBeenCalledWith('handle'));
    expect(late).toHaveBeenCalledTimes(1);
  });
});
