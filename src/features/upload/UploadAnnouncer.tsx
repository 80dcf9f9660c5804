import { useAppSelector } from '../../app/hooks.ts';
import { PoliteAnnouncer } from '../../app/layout/PoliteAnnouncer.tsx';
import { uploadAnnouncement } from './uploadAnnouncement.ts';
import { selectOverallProgress } from './uploadQueueSlice.ts';

/** The run's progress for screen readers (uploadAnnouncement.ts); re-renders only when the sentence changes. */
export function UploadAnnouncer({ running }: { running: boolean }) {
  const message = useAppSelector((state) => uploadAnnouncement(running, selectOverallProgress(state)));
  return <PoliteAnnouncer message={message} />;
}
