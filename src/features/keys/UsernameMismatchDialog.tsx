import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { DialogChoice } from '../../app/forms/index.ts';

interface UsernameMismatchDialogProps {
  /** The username in the backup file (null: the file names nobody); undefined: closed. */
  backupUsername: string | null | undefined;
  currentUsername: string;
  onAnswer(restoreAnyway: boolean): void;
}

/** Restore: a backup made for another username needs an explicit confirmation (spec section 5). */
export function UsernameMismatchDialog({ backupUsername, currentUsername, onAnswer }: UsernameMismatchDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={backupUsername !== undefined} onClose={() => onAnswer(false)} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Backup belongs to another user</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {backupUsername === null || backupUsername === undefined
            ? 'This backup file does not say which user it belongs to.'
            : `This backup file was made for the user "${backupUsername}".`}{' '}
          You are signed in as "{currentUsername}". Restore this key for your account anyway?
        </DialogContentText>
      </DialogContent>
      <DialogChoice dismissLabel="Cancel" onDismiss={() => onAnswer(false)} confirmLabel="Restore Anyway" onConfirm={() => onAnswer(true)} confirmColor="warning" />
    </Dialog>
  );
}
