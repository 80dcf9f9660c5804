// The files screen's unfinished uploads: resumable uploads of this folder that started
// and did not complete, with the bytes each holds and its last activity, and Cancel, which deletes
// their bytes at once and gives the folder's room back (DELETE /api/folders/{id}/uploads/{id}).
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { describeApiError } from '../../api/errors.ts';
import { useCancelUnfinishedUploadMutation, useListUnfinishedUploadsQuery, type UnfinishedUpload } from '../../api/storageApi.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import { UNFINISHED_TEXTS } from '../../lib/userTexts.ts';
import { DialogChoice } from '../../app/forms/index.ts';

const nameOf = (upload: UnfinishedUpload) => (upload.relative_path === '.' || upload.relative_path === '' ? upload.filename : `${upload.relative_path}/${upload.filename}`);

function CancelDialog({ upload, busy, onKeep, onCancel }: { upload: UnfinishedUpload | null; busy: boolean; onKeep(): void; onCancel(): void }) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={upload !== null} onClose={busy ? undefined : onKeep} aria-labelledby={titleId} aria-describedby={textId} maxWidth="sm">
      <DialogTitle id={titleId}>{UNFINISHED_TEXTS.confirmTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{upload ? UNFINISHED_TEXTS.confirm(nameOf(upload)) : ''}</DialogContentText>
      </DialogContent>
      <DialogChoice dismissLabel={UNFINISHED_TEXTS.keep} onDismiss={onKeep} confirmLabel={UNFINISHED_TEXTS.confirmAction} onConfirm={onCancel} confirmColor="error" busy={busy} />
    </Dialog>
  );
}

export function UnfinishedUploadsSection({ folderId }: { folderId: number }) {
  const notify = useNotifier();
  const { data: uploads, isLoading, error } = useListUnfinishedUploadsQuery(folderId, { refetchOnMountOrArgChange: true });
  const [cancelUpload, { isLoading: cancelling }] = useCancelUnfinishedUploadMutation();
  const [pending, setPending] = useState<UnfinishedUpload | null>(null);

  async function confirmCancel() {
    if (!pending) return;
    const name = nameOf(pending);
    try {
      await cancelUpload({ folderId, uploadId: pending.id }).unwrap();
      notify.success(UNFINISHED_TEXTS.cancelled(name));
    } catch (cause) {
      notify.error(cause);
    } finally {
      setPending(null);
    }
  }

  let content;
  if (isLoading) content = <Typography color="text.secondary">{UNFINISHED_TEXTS.loading}</Typography>;
  else if (error || !uploads) content = <Typography color="text.secondary">{describeApiError(error).message}</Typography>;
  else if (uploads.length === 0) content = <Typography color="text.secondary">{UNFINISHED_TEXTS.empty}</Typography>;
  else {
    content = (
      <List disablePadding aria-label={UNFINISHED_TEXTS.title}>
        {uploads.map((upload) => {
          const name = nameOf(upload);
          return (
            <ListItem
              key={upload.id}
              divider
              disableGutters
              aria-label={name}
              secondaryAction={
                <Button size="small" color="error" disabled={cancelling} onClick={() => setPending(upload)} aria-label={UNFINISHED_TEXTS.cancelLabel(name)}>
                  {UNFINISHED_TEXTS.cancel}
                </Button>
              }
              sx={{ pr: 12 }}
            >
              <ListItemText
                primary={name}
                secondary={UNFINISHED_TEXTS.details(upload.received_bytes, upload.upload_length, formatDateTime(new Date(upload.last_activity_at).toISOString()))}
                slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }}
              />
            </ListItem>
          );
        })}
      </List>
    );
  }

  return (
    <SettingsSection title={UNFINISHED_TEXTS.title} description={UNFINISHED_TEXTS.intro}>
      {content}
      <CancelDialog upload={pending} busy={cancelling} onKeep={() => setPending(null)} onCancel={() => void confirmCancel()} />
    </SettingsSection>
  );
}
