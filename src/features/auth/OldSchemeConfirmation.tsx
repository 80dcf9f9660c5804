import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useIntl } from 'react-intl';
import { SIGN_IN_TEXTS } from '../../lib/userTexts.ts';
import { AUTH_MESSAGES } from './messages.ts';

interface OldSchemeConfirmationProps {
  onSend(): void;
  onCancel(): void;
}

/**
 * Shown when the server asks for the password itself (an account of the old scheme): the password
 * leaves the browser only when the person chooses to send it, having read why that may be a trap.
 */
export function OldSchemeConfirmation({ onSend, onCancel }: OldSchemeConfirmationProps) {
  const intl = useIntl();
  return (
    <Alert severity="warning" sx={{ mb: 2.5 }} role="alertdialog" aria-label={intl.formatMessage(AUTH_MESSAGES.oldSchemeLabel)}>
      {SIGN_IN_TEXTS.oldSchemeConfirm}
      <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
        <Button variant="contained" color="warning" onClick={onSend}>
          {SIGN_IN_TEXTS.oldSchemeSend}
        </Button>
        <Button onClick={onCancel}>{SIGN_IN_TEXTS.oldSchemeCancel}</Button>
      </Stack>
    </Alert>
  );
}
