import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { LockIcon } from '../../app/icons.tsx';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { DOWNLOAD_PAGE_MESSAGES } from '../../lib/userTexts.ts';
import { PasswordField } from '../../app/forms/index.ts';
import { pageMessages } from './messages.ts';

interface PasswordStepProps {
  busy: boolean;
  error: string | null;
  /** The link pins its KDF parameters in its address; a link made before gets a note. */
  pinned: boolean;
  onUnlock(password: string): void;
}

/** Step 1: 'This download is password protected.' and 'Unlock Files'. */
export function PasswordStep({ busy, error, pinned, onUnlock }: PasswordStepProps) {
  const intl = useIntl();
  const [password, setPassword] = useState('');
  const errorLink = useFieldErrorLink(error !== null);

  function submit(event: FormEvent) {
    event.preventDefault();
    onUnlock(password);
  }

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.5} aria-label={intl.formatMessage(pageMessages.unlockForm)}>
      <Typography sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <LockIcon fontSize="small" color="primary" />
        {DOWNLOAD_PAGE_MESSAGES.passwordPrompt}
      </Typography>
      {!pinned && (
        // A note, not an alert: it describes the link, it does not report a failure.
        <Alert severity="info" role="note">
          {DOWNLOAD_PAGE_MESSAGES.olderProtection}
        </Alert>
      )}
      <PasswordField
        label={intl.formatMessage(pageMessages.password)}
        name="password"
        autoComplete="off"
        autoFocus
        value={password}
        disabled={busy}
        error={error !== null}
        onChange={setPassword}
        inputProps={errorLink.inputProps}
      />
      {error && (
        <Alert id={errorLink.messageId} severity="error" role="alert">
          {error}
        </Alert>
      )}
      <div>
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {busy ? DOWNLOAD_PAGE_MESSAGES.unlocking : DOWNLOAD_PAGE_MESSAGES.unlock}
        </Button>
      </div>
    </Stack>
  );
}
