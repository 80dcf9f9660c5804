import { createSelector } from '@reduxjs/toolkit';
import { shallowEqual } from 'react-redux';
import { selectQueuedFiles, type QueuedFileStatus } from './uploadQueueSlice.ts';

export type QueueSummary = Record<QueuedFileStatus, number> & { total: number };

/**
 * How many queued files are in each status (recomputed only when an entry changes). Equal counts
 * give the same object, so a progress flush that changes bytes but no status does not re-render
 * the page around the queue.
 */
export const selectQueueSummary = createSelector(
  [selectQueuedFiles],
  (files): QueueSummary => {
    const summary: QueueSummary = { total: files.length, pending: 0, hashing: 0, encrypting: 0, uploading: 0, success: 0, error: 0 };
    for (const file of files) summary[file.status]++;
    return summary;
  },
  { memoizeOptions: { resultEqualityCheck: shallowEqual } },
);
