import { PoliteAnnouncer } from '../../app/layout/PoliteAnnouncer.tsx';
import { DownloadProgressPanel } from './DownloadProgressPanel.tsx';
import { adminDownloadAnnouncement } from './downloadAnnouncement.ts';
import { useDownloadProgress } from './downloadProgressStore.ts';
import type { ActiveDownload, RunningDownload } from './useFileDownloads.tsx';

/**
 * The files screen's live region and, while a download runs, its progress panel: the only part of
 * the screen that re-renders on a progress report (downloadProgressStore.ts).
 */
export function DownloadStatus({ running, onCancel }: { running: RunningDownload | null; onCancel(): void }) {
  const progress = useDownloadProgress(running?.progress ?? null);
  const active: ActiveDownload | null = running && { label: running.label, fileCount: running.fileCount, progress };
  return (
    <>
      <PoliteAnnouncer message={adminDownloadAnnouncement(active)} />
      {active && <DownloadProgressPanel active={active} onCancel={onCancel} />}
    </>
  );
}
