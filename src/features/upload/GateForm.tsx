// The frame every gate step of the upload page shares (password, e-mail, code): an explanation,
// the step's field, its error, optional notices, and the step's buttons.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FormEvent, ReactNode } from 'react';
import { describeApiError } from '../../api/errors.ts';
import type { UploadNotifier } from './uploadController.ts';

interface GateFormProps {
  /** Accessible name of the form. */
  label: string;
  intro: ReactNode;
  error: string | null;
  /** The id the error gets, for the field it is about (useFieldErrorLink). */
  errorId: string;
  onSubmit(): void;
  /** The field, and any notice shown above it. */
  children: ReactNode;
  /** Shown under the error (e.g. 'Code resent ...'). */
  notice?: ReactNode;
  actions: ReactNode;
}

export function GateForm({ label, intro, error, errorId, onSubmit, children, notice, actions }: GateFormProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <Stack component="form" spacing={2.5} noValidate onSubmit={submit} aria-label={label}>
      <Typography color="text.secondary">{intro}</Typography>
      {children}
      {error && (
        <Alert id={errorId} severity="error" role="alert">
          {error}
        </Alert>
      )}
      {notice}
      {actions}
    </Stack>
  );
}

/** The step's main button: its label, or the busy label while the request runs. */
export function GateSubmitButton({ busy, label, busyLabel, disabled = false }: { busy: boolean; label: string; busyLabel: string; disabled?: boolean }) {
  return (
    <Button type="submit" variant="contained" size="large" disabled={busy || disabled} sx={{ alignSelf: 'flex-start' }}>
      {busy ? busyLabel : label}
    </Button>
  );
}

/**
 * A gate request the server refused: the message goes under the field, and also into a
 * notification when describeApiError says it warrants one.
 */
export function showGateFailure(error: unknown, setError: (message: string) => void, notifier: UploadNotifier): void {
  const described = describeApiError(error);
  setError(described.message);
  if (described.toast) notifier.show('error', described.message);
}
