import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import { DialogChoice } from '../forms/index.ts';
import { SHELL_MESSAGES } from './messages.ts';

interface ConfirmDeleteDialogProps {
  open: boolean;
  title: string;
  /** The spec's confirmation sentence for what is being deleted. */
  message: string;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}

/** The one confirmation dialog behind every destructive delete (folders, files, download links). */
export function ConfirmDeleteDialog({ open, title, message, busy, onCancel, onConfirm }: ConfirmDeleteDialogProps) {
  const intl = useIntl();
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} aria-describedby={textId} maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
      </DialogContent>
      <DialogChoice
        dismissLabel={intl.formatMessage(SHELL_MESSAGES.deleteCancel)}
        onDismiss={onCancel}
        confirmLabel={intl.formatMessage(busy ? SHELL_MESSAGES.deleting : SHELL_MESSAGES.deleteConfirm)}
        onConfirm={onConfirm}
        confirmColor="error"
        busy={busy}
      />
    </Dialog>
  );
}
