import { describe, expect, it } from 'vitest';
import { isTransferRunning, subscribeTransfers, transferStarted } from './transferActivity.ts';

describe('transfer activity', () => {
  it('is running while any transfer runs, tells listeners, and an end counts once', () => {
    const seen: boolean[] = [];
    const unsubscribe = subscribeTransfers(() => seen.push(isTransferRunning()));
    const endUpload = transferStarted();
    const endDownload = transferStarted();
    endUpload();
    endUpload();
    expect(isTransferRunning()).toBe(true);
    endDownload();
    expect(isTransferRunning()).toBe(false);
    expect(seen).toEqual([true, true, true, false]);
    unsubscribe();
  });
});
