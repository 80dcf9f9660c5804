import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

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
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button color="inherit" onClick={() => onAnswer(false)}>
          Cancel
        </Button>
        <Button variant="contained" color="warning" onClick={() => onAnswer(true)}>
          Restore Anyway
        </Button>
      </DialogActions>
    </Dialog>
  );
}
