import { createSelector } from '@reduxjs/toolkit';
import { selectQueuedFiles, type QueuedFileStatus } from './uploadQueueSlice.ts';

export type QueueSummary = Record<QueuedFileStatus, number> & { total: number };

/** How many queued files are in each status (recomputed only when an entry changes). */
export const selectQueueSummary = createSelector([selectQueuedFiles], (files): QueueSummary => {
  const summary: QueueSummary = { total: files.length, pending: 0, hashing: 0, encrypting: 0, uploading: 0, success: 0, error: 0 };
  for (const file of files) summary[file.status]++;
  return summary;
});
