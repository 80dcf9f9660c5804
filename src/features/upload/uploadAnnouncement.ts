import { announcedPercent } from '../../lib/transferAnnouncement.ts';
import { ANNOUNCEMENTS } from '../../lib/userTexts.ts';
import type { OverallProgress } from './uploadQueueSlice.ts';

/**
 * What the upload page's live region says while a run goes on: its start, then each quarter of the
 * bytes. Silent otherwise: a run's outcome is announced by its notification (spec section 8), which
 * is itself a live region (polite for success, assertive for errors).
 */
export function uploadAnnouncement(running: boolean, overall: OverallProgress | null): string {
  if (!running || !overall) return '';
  const percent = overall.bytesTotal > 0 ? announcedPercent((overall.bytesSent / overall.bytesTotal) * 100) : 0;
  return percent === 0 ? ANNOUNCEMENTS.uploadStarted(overall.filesTotal) : ANNOUNCEMENTS.uploadProgress(percent);
}
