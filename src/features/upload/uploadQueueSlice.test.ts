import { describe, expect, it } from 'vitest';
import { filesQueued, initialUploadQueueState, queueUpdated, uploadQueueSlice, type UploadQueueState } from './uploadQueueSlice.ts';

const reduce = uploadQueueSlice.reducer;

function queueOf(count: number): UploadQueueState {
  const files = Array.from({ length: count }, (_, i) => ({ id: `f${i}`, name: `file-${i}.bin`, relativePath: '.', size: 100 + i, lastModified: 1 }));
  return reduce(initialUploadQueueState, filesQueued(files));
}

describe('queueUpdated', () => {
  it('changes only the patched fields of the patched files, merging patches of one file in order', () => {
    const before = queueOf(3);
    const after = reduce(
      before,
      queueUpdated({
        patches: [
          { id: 'f1', changes: { status: 'uploading', progress: 40, bytesSent: 40 } },
          { id: 'f1', changes: { progress: 50 } },
        ],
      }),
    );
    expect(after.entities.f1).toEqual({ ...before.entities.f1, status: 'uploading', progress: 50, bytesSent: 40 });
    expect(after.ids).toBe(before.ids);
  });

  it('leaves the entries it does not change as they were (rows of other files do not re-render)', () => {
    const before = queueOf(3);
    const after = reduce(before, queueUpdated({ patches: [{ id: 'f0', changes: { status: 'success', progress: 100 } }] }));
    expect(after.entities.f1).toBe(before.entities.f1);
    expect(after.entities.f2).toBe(before.entities.f2);
    expect(after.entities.f0).not.toBe(before.entities.f0);
  });

  it('ignores a patch of a file no longer in the queue and sets the run total when given', () => {
    const before = queueOf(1);
    const overall = { filesTotal: 1, filesDone: 0, bytesTotal: 100, bytesSent: 0, bytesPerSecond: null, secondsLeft: null };
    const after = reduce(before, queueUpdated({ patches: [{ id: 'gone', changes: { status: 'error' } }], overall }));
    expect(after.entities).toEqual(before.entities);
    expect(after.entities.gone).toBeUndefined();
    expect(after.overall).toEqual(overall);
  });
});
