import { announcedPercent } from '../../lib/transferAnnouncement.ts';
import { ANNOUNCEMENTS } from '../../lib/userTexts.ts';
import type { ActiveDownload } from './useFileDownloads.tsx';

/**
 * What the files screen's live region says about the running download: its start and each quarter.
 * The panel itself shows bytes, rate and time left, which change several times a second: read
 * aloud they would drown everything else. The outcome is a notification (itself a live region).
 */
export function adminDownloadAnnouncement(active: ActiveDownload | null): string {
  if (!active) return '';
  const { progress } = active;
  const percent = progress && progress.totalBytes > 0 ? announcedPercent((100 * progress.bytes) / progress.totalBytes) : 0;
  return percent === 0 ? ANNOUNCEMENTS.downloadStarted(active.label) : ANNOUNCEMENTS.downloadProgress(active.label, percent);
}
