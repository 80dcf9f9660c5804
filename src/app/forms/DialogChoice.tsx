import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import type { ReactNode } from 'react';

export interface DialogChoiceProps {
  /** The way out that changes nothing ('Cancel', 'Keep Enabled'). */
  dismissLabel: ReactNode;
  onDismiss(): void;
  /** The action the dialog asks for; its text may say that it is under way ('Deleting...'). */
  confirmLabel: ReactNode;
  /** Without it the button submits the form the actions stand in. */
  onConfirm?: () => void;
  /** `error` for what cannot be undone, `warning` for what replaces something. */
  confirmColor?: 'primary' | 'error' | 'warning';
  /** While the action runs both buttons are disabled. */
  busy?: boolean;
  autoFocusConfirm?: boolean;
}

/**
 * The two buttons at the foot of a dialog that asks for one thing: a quiet way out on the left,
 * the action on the right. Every confirmation and password dialog ends with these, so they look,
 * wait and focus alike.
 */
export function DialogChoice({ dismissLabel, onDismiss, confirmLabel, onConfirm, confirmColor = 'primary', busy = false, autoFocusConfirm }: DialogChoiceProps) {
  return (
    <DialogActions sx={{ px: 3, pb: 2.5 }}>
      <Button color="inherit" onClick={onDismiss} disabled={busy}>
        {dismissLabel}
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        variant="contained"
        color={confirmColor}
        onClick={onConfirm}
        disabled={busy}
        autoFocus={autoFocusConfirm}
      >
        {confirmLabel}
      </Button>
    </DialogActions>
  );
}
