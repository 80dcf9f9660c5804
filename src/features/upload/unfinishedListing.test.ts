import { describe, expect, it } from 'vitest';
import type { QueueEntry } from './resume/queueEntry.ts';
import type { QueuedFile } from './uploadQueueSlice.ts';
import { listedEntries } from './UnfinishedUploads.tsx';

const entry = (name: string, size = 100): QueueEntry => ({ id: name, relativePath: '.', name, size, lastModified: 1 }) as QueueEntry;
const queued = (name: string, size = 100): QueuedFile => ({ id: `q-${name}`, relativePath: '.', name, size, lastModified: 1 }) as QueuedFile;

describe('listedEntries', () => {
  const entries = [entry('big.bin'), entry('other.bin'), entry('changed.bin')];
  const selection = [queued('big.bin'), queued('changed.bin', 999)];

  it('lists every unfinished entry while nothing runs (selected ones are marked, not hidden)', () => {
    expect(listedEntries(entries, selection, false).map((e) => e.name)).toEqual(['big.bin', 'other.bin', 'changed.bin']);
  });

  it('while a run sends, leaves out the files it is sending: their entry is the run’s own, not a leftover', () => {
    expect(listedEntries(entries, selection, true).map((e) => e.name)).toEqual(['other.bin']);
  });
});
