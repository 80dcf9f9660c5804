// The files screen's retention: the folder's rule under the title, and each file's
// "deleted on ..." beside its upload time (FileDeletionDate).
import Typography from '@mui/material/Typography';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import { RETENTION_TEXTS } from '../../lib/userTexts.ts';
import { deletionDue } from './retentionDates.ts';

export function RetentionNote({ retentionDays }: { retentionDays: number | null }) {
  if (retentionDays === null) return null;
  return (
    <Typography variant="body2" color="text.secondary" data-testid="retention-note" sx={{ mb: 1.5 }}>
      {RETENTION_TEXTS.policy(retentionDays)}
    </Typography>
  );
}

export function FileDeletionDate({ uploadTime, retentionDays }: { uploadTime: string; retentionDays: number | null }) {
  const due = deletionDue(uploadTime, retentionDays);
  if (due === null) return null;
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
      {RETENTION_TEXTS.deletedOn(formatDateTime(due))}
    </Typography>
  );
}
