// Removing a member: says what removal does and does not do (docs/team-folders.md, "Removing a
// member"; docs/security.md, offboarding) before the new key is made and the list signed.
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { DialogChoice } from '../../app/forms/index.ts';
import { TEAM_DIALOG_TEXTS as T } from '../../lib/userTexts.ts';

interface RemoveMemberDialogProps {
  /** The member's name; open while set. */
  name: string | null;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}

export function RemoveMemberDialog({ name, busy, onCancel, onConfirm }: RemoveMemberDialogProps) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={name !== null} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} aria-describedby={textId} maxWidth="sm">
      <DialogTitle id={titleId}>{T.removeTitle(name ?? '')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{T.removeBody}</DialogContentText>
      </DialogContent>
      <DialogChoice dismissLabel={T.cancel} onDismiss={onCancel} confirmLabel={busy ? T.removing : T.removeConfirm} onConfirm={onConfirm} confirmColor="error" busy={busy} />
    </Dialog>
  );
}
