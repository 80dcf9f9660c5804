import { describe, expect, it } from 'vitest';
import { emptyRunCounts, runOutcome, type RunCounts } from './runOutcome.ts';

const counts = (overrides: Partial<RunCounts>): RunCounts => ({ ...emptyRunCounts(overrides.total ?? 0), ...overrides });

describe('runOutcome', () => {
  it('all stored: success toast, back to step 4', () => {
    expect(runOutcome(counts({ total: 3, stored: 3 }))).toEqual({
      toasts: [{ variant: 'success', message: 'Upload successful! All 3 processed files received.' }],
      stepError: null,
    });
  });

  it('some failed on the server: warning with the counts, step 7', () => {
    expect(runOutcome(counts({ total: 4, stored: 2, serverFailed: 1, unreported: 1 }))).toEqual({
      toasts: [{ variant: 'warning', message: 'Batch processed: 2 succeeded, 2 failed.' }],
      stepError: 'Some files failed to upload. Check file statuses.',
    });
  });

  it('no outcome confirmed: the unconfirmed warning', () => {
    const outcome = runOutcome(counts({ total: 2, unreported: 2, emptyResponse: true }));
    expect(outcome.toasts).toEqual([
      { variant: 'error', message: 'Received empty response data from server.' },
      { variant: 'warning', message: 'Upload processed, but server did not confirm file outcomes for this batch.' },
    ]);
    expect(outcome.stepError).toBe('Some files failed to upload. Check file statuses.');
  });

  it('every file failed client-side: nothing processed, step 7', () => {
    expect(runOutcome(counts({ total: 2, processingFailed: 2 }))).toEqual({
      toasts: [{ variant: 'error', message: 'No files were successfully processed for upload.' }],
      stepError: 'All files failed during client-side processing. Please check files or try again.',
    });
  });

  it('some failed client-side, the rest stored: confirmed count, step 7', () => {
    expect(runOutcome(counts({ total: 3, processingFailed: 1, stored: 2 }))).toEqual({
      toasts: [{ variant: 'success', message: 'Upload processed: 2 files confirmed successful.' }],
      stepError: 'Some files failed client-side processing. Only successfully processed files will be uploaded.',
    });
  });

  it('a request failed for good: the API failure with its reason, step 7', () => {
    const outcome = runOutcome(
      counts({ total: 3, requestFailed: 3, requestFailureReason: 'Network Error: Could not connect to the server.' }),
    );
    expect(outcome).toEqual({
      toasts: [{ variant: 'error', message: 'Upload API call failed: Network Error: Could not connect to the server.' }],
      stepError: 'Upload API call failed: Network Error: Could not connect to the server.',
    });
  });
});
