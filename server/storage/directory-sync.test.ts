import { describe, expect, it } from 'vitest';
import { DirectorySync } from './directory-sync.ts';

/** An fsync whose every call waits for the test; records when each call started. */
function heldFsync() {
  const calls: Array<{ directory: string; finish: () => void; fail: (error: Error) => void }> = [];
  const fsync = (directory: string) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ directory, finish: resolve, fail: reject });
    });
  return { calls, fsync };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

function track(promise: Promise<void>) {
  const state = { done: false, error: undefined as unknown };
  promise.then(
    () => (state.done = true),
    (error: unknown) => (state.error = error),
  );
  return state;
}

describe('DirectorySync', () => {
  it('starts an fsync at once when none is running', async () => {
    const { calls, fsync } = heldFsync();
    const sync = new DirectorySync(fsync);
    const first = track(sync.sync('/d'));
    expect(calls).toHaveLength(1);
    calls[0]!.finish();
    await settle();
    expect(first.done).toBe(true);
  });

  it('never answers a caller with an fsync that started before its call; callers meanwhile share the next one', async () => {
    const { calls, fsync } = heldFsync();
    const sync = new DirectorySync(fsync);
    const first = track(sync.sync('/d'));
    const later = [track(sync.sync('/d')), track(sync.sync('/d')), track(sync.sync('/d'))];
    await settle();
    expect(calls).toHaveLength(1);
    calls[0]!.finish();
    await settle();
    expect(first.done).toBe(true);
    expect(later.some((c) => c.done)).toBe(false);
    expect(calls).toHaveLength(2);
    calls[1]!.finish();
    await settle();
    expect(later.every((c) => c.done)).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('fails every caller sharing a failed fsync; the next call starts a fresh one', async () => {
    const { calls, fsync } = heldFsync();
    const sync = new DirectorySync(fsync);
    const first = track(sync.sync('/d'));
    calls[0]!.fail(new Error('EIO'));
    await settle();
    expect((first.error as Error).message).toBe('EIO');
    const next = track(sync.sync('/d'));
    expect(calls).toHaveLength(2);
    calls[1]!.finish();
    await settle();
    expect(next.done).toBe(true);
  });

  it('keeps directories apart', async () => {
    const { calls, fsync } = heldFsync();
    const sync = new DirectorySync(fsync);
    track(sync.sync('/a'));
    const b = track(sync.sync('/b'));
    expect(calls.map((c) => c.directory)).toEqual(['/a', '/b']);
    calls[1]!.finish();
    await settle();
    expect(b.done).toBe(true);
  });
});
