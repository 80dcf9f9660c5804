import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import { DialogChoice } from '../../app/forms/index.ts';
import { KEYS_UI } from './messages.ts';

interface UsernameMismatchDialogProps {
  /** The username in the backup file (null: the file names nobody); undefined: closed. */
  backupUsername: string | null | undefined;
  currentUsername: string;
  onAnswer(restoreAnyway: boolean): void;
}

/** Restore: a backup made for another username needs an explicit confirmation (spec section 5). */
export function UsernameMismatchDialog({ backupUsername, currentUsername, onAnswer }: UsernameMismatchDialogProps) {
  const intl = useIntl();
  const titleId = useId();
  return (
    <Dialog open={backupUsername !== undefined} onClose={() => onAnswer(false)} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{intl.formatMessage(KEYS_UI.mismatchTitle)}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {backupUsername === null || backupUsername === undefined
            ? intl.formatMessage(KEYS_UI.mismatchNoUser, { currentUsername })
            : intl.formatMessage(KEYS_UI.mismatchOtherUser, { backupUsername, currentUsername })}
        </DialogContentText>
      </DialogContent>
      <DialogChoice
        dismissLabel={intl.formatMessage(KEYS_UI.cancel)}
        onDismiss={() => onAnswer(false)}
        confirmLabel={intl.formatMessage(KEYS_UI.mismatchConfirm)}
        onConfirm={() => onAnswer(true)}
        confirmColor="warning"
      />
    </Dialog>
  );
}
