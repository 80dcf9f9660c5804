import type { SharedFile } from '../../api/linksApi.ts';
import { announcedPercent } from '../../lib/transferAnnouncement.ts';
import { ANNOUNCEMENTS } from '../../lib/userTexts.ts';
import type { FileDownloadState, ZipDownloadState } from './useLinkDownloads.ts';

function fileSentence(name: string, state: FileDownloadState): string | null {
  switch (state.status) {
    case 'idle':
      return null;
    case 'done':
      return ANNOUNCEMENTS.downloadFinished(name);
    case 'failed':
      return ANNOUNCEMENTS.downloadFailed(name);
    default: {
      const percent = announcedPercent(state.percent ?? 0);
      return percent === 0 ? ANNOUNCEMENTS.downloadStarted(name) : ANNOUNCEMENTS.downloadProgress(name, percent);
    }
  }
}

/**
 * What the download page's live region says: each file's download as it starts, at each quarter
 * and when it is done or failed (the button's 'Done!' and 'Failed' are only seen), and the ZIP or
 * folder save by quarters (their outcome is a notification, itself a live region).
 */
export function recipientAnnouncement(files: readonly SharedFile[], stateOf: (file: SharedFile) => FileDownloadState, zip: ZipDownloadState): string {
  const sentences = files.map((file) => fileSentence(file.original_filename, stateOf(file))).filter((sentence) => sentence !== null);
  if (zip.running) {
    const percent = announcedPercent(zip.percent ?? 0);
    sentences.push(zip.mode === 'folder' ? ANNOUNCEMENTS.folderSaveProgress(percent) : ANNOUNCEMENTS.zipProgress(percent));
  }
  return sentences.join(' ');
}
