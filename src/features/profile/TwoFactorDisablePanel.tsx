import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useDisableTwoFactorMutation } from '../../api/authApi.ts';
import { useNotifier } from '../../app/notifier.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { useAccountSecret } from '../../app/accountSecrets.ts';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { DialogChoice, PasswordField } from '../../app/forms/index.ts';
import { PROFILE_MESSAGES } from './messages.ts';

/** Disabling needs the current password and a confirmation (spec sections 4 and 5). */
export function TwoFactorDisablePanel({ onDisabled }: { onDisabled(): void }) {
  const intl = useIntl();
  const notify = useNotifier();
  const [disable] = useDisableTwoFactorMutation();
  const accountSecret = useAccountSecret();
  const [disabling, setDisabling] = useState(false);
  const [prompting, setPrompting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const errorLink = useFieldErrorLink(feedback?.severity === 'error');

  function reset() {
    setPrompting(false);
    setConfirming(false);
    setPassword('');
    setFeedback(null);
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setFeedback({ severity: 'error', message: intl.formatMessage(PROFILE_MESSAGES.disablePasswordRequired) });
      return;
    }
    setFeedback(null);
    setConfirming(true);
  }

  async function handleConfirm() {
    setConfirming(false);
    setDisabling(true);
    try {
      const { authSecret } = await accountSecret(password);
      await disable({ auth_secret: authSecret }).unwrap();
      reset();
      onDisabled();
    } catch (cause) {
      setPassword('');
      setFeedback({ severity: 'error', message: notify.error(cause).message });
    } finally {
      setDisabling(false);
    }
  }

  if (!prompting) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary">
          {intl.formatMessage(PROFILE_MESSAGES.disableOnText)}
        </Typography>
        <Button variant="outlined" color="error" onClick={() => setPrompting(true)}>
          {intl.formatMessage(PROFILE_MESSAGES.disable2fa)}
        </Button>
      </Box>
    );
  }

  return (
    <Stack component="form" spacing={2} noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(PROFILE_MESSAGES.disableFormLabel)}>
      <Typography variant="body2" color="text.secondary">
        {intl.formatMessage(PROFILE_MESSAGES.disableIntro)}
      </Typography>
      <PasswordField
        label={intl.formatMessage(PROFILE_MESSAGES.disablePassword)}
        name="password"
        autoFocus
        value={password}
        onChange={setPassword}
        inputProps={errorLink.inputProps}
      />
      <FormFeedback feedback={feedback} id={errorLink.messageId} />
      <Stack direction="row" spacing={1.5}>
        <Button type="submit" variant="contained" color="error" disabled={disabling}>
          {intl.formatMessage(disabling ? PROFILE_MESSAGES.disabling : PROFILE_MESSAGES.disable)}
        </Button>
        <Button variant="text" color="inherit" onClick={reset} disabled={disabling}>
          {intl.formatMessage(PROFILE_MESSAGES.cancel)}
        </Button>
      </Stack>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="disable-2fa-title">
        <DialogTitle id="disable-2fa-title">{intl.formatMessage(PROFILE_MESSAGES.disableConfirmTitle)}</DialogTitle>
        <DialogContent>
          <DialogContentText>{intl.formatMessage(PROFILE_MESSAGES.disableConfirmText)}</DialogContentText>
        </DialogContent>
        <DialogChoice
          dismissLabel={intl.formatMessage(PROFILE_MESSAGES.keepEnabled)}
          onDismiss={() => setConfirming(false)}
          confirmLabel={intl.formatMessage(PROFILE_MESSAGES.disable2fa)}
          onConfirm={handleConfirm}
          confirmColor="error"
        />
      </Dialog>
    </Stack>
  );
}
