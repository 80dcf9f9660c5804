import { describe, expect, it } from 'vitest';
import { uploadAnnouncement } from './uploadAnnouncement.ts';
import type { OverallProgress } from './uploadQueueSlice.ts';

const overall = (bytesSent: number, filesDone = 0): OverallProgress => ({ filesTotal: 3, filesDone, bytesTotal: 1000, bytesSent, bytesPerSecond: 100, secondsLeft: 5 });

describe('uploadAnnouncement', () => {
  it('announces the start, then each quarter, and the sentence stays the same between quarters', () => {
    expect(uploadAnnouncement(true, overall(0))).toBe('Upload started: 3 files.');
    expect(uploadAnnouncement(true, overall(249))).toBe('Upload started: 3 files.');
    expect(uploadAnnouncement(true, overall(250))).toBe('Uploading: 25%.');
    expect(uploadAnnouncement(true, overall(499, 1))).toBe(uploadAnnouncement(true, overall(260, 0)));
    expect(uploadAnnouncement(true, overall(1000, 3))).toBe('Uploading: 100%.');
  });

  it('is silent when no run goes on (the outcome is the notification’s to announce)', () => {
    expect(uploadAnnouncement(false, overall(500))).toBe('');
    expect(uploadAnnouncement(true, null)).toBe('');
  });

  it('a run whose size is not known yet counts as just started', () => {
    expect(uploadAnnouncement(true, { ...overall(0), bytesTotal: 0 })).toBe('Upload started: 3 files.');
  });
});
