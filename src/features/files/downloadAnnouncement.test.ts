import { describe, expect, it } from 'vitest';
import { adminDownloadAnnouncement } from './downloadAnnouncement.ts';
import type { ActiveDownload } from './useFileDownloads.tsx';

const running = (bytes: number | null): ActiveDownload => ({
  label: 'Client_intake.zip',
  fileCount: 3,
  progress: bytes === null ? null : { bytes, totalBytes: 400, rateBytesPerSecond: 10, secondsLeft: 3 },
});

describe('adminDownloadAnnouncement', () => {
  it('announces the start and each quarter, not every figure', () => {
    expect(adminDownloadAnnouncement(running(null))).toBe('Downloading Client_intake.zip.');
    expect(adminDownloadAnnouncement(running(99))).toBe('Downloading Client_intake.zip.');
    expect(adminDownloadAnnouncement(running(100))).toBe('Downloading Client_intake.zip: 25%.');
    expect(adminDownloadAnnouncement(running(199))).toBe('Downloading Client_intake.zip: 25%.');
    expect(adminDownloadAnnouncement(running(400))).toBe('Downloading Client_intake.zip: 100%.');
  });

  it('is silent when nothing downloads', () => {
    expect(adminDownloadAnnouncement(null)).toBe('');
  });
});
