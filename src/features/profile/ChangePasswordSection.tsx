import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useChangePasswordMutation } from '../../api/authApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { isKeyError, usePersistentWarning } from '../keys/index.ts';
import { useAccountSecret } from '../../app/accountSecrets.ts';
import { newAccountKdfParams } from '../../../crypto/index.ts';
import { useNotifier } from '../../app/notifier.ts';
import { afterPasswordChangedSteps, runAfterPasswordChanged } from './afterPasswordChanged.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { PROFILE_MESSAGES } from './messages.ts';
import { canSubmitPasswordChange, NEW_PASSWORD_MIN_LENGTH, passwordChangeError, passwordMismatchText } from './passwordChangeValidation.ts';
import { PasswordField } from '../../app/forms/index.ts';

export function ChangePasswordSection() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const notify = useNotifier();
  const warnPersistently = usePersistentWarning();
  const [changePassword] = useChangePasswordMutation();
  const accountSecret = useAccountSecret();
  const username = useAppSelector(selectCurrentUser)?.username ?? '';
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const errorLink = useFieldErrorLink(feedback?.severity === 'error', { withHelperText: true });

  const values = { oldPassword, newPassword, confirmPassword };
  const mismatch = confirmPassword !== '' && newPassword !== confirmPassword;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = passwordChangeError(values);
    if (problem) {
      setFeedback({ severity: 'error', message: problem });
      return;
    }
    setFeedback(null);
    setBusy(true);
    try {
      // Neither password is sent: the old one's authentication secret proves it, the new one's
      // secret under a fresh parameter block bound to the username replaces it (workers derive both).
      const old = await accountSecret(oldPassword);
      const newKdfParams = newAccountKdfParams(username);
      const newAuthSecret = await cryptoPool().deriveAuthSecret(newPassword, newKdfParams, username);
      await changePassword({ old_auth_secret: old.authSecret, new_auth_secret: newAuthSecret, new_kdf_params: newKdfParams }).unwrap();
      await runAfterPasswordChanged(afterPasswordChangedSteps, { oldPassword, newPassword, newKdfParams, dispatch, cryptoPool });
      setOldPassword('');
      setNewPassword('');
      setConfirmPassword('');
      const changedText = intl.formatMessage(PROFILE_MESSAGES.passwordChanged);
      setFeedback({ severity: 'success', message: changedText });
      notify.success(changedText);
    } catch (cause) {
      if (isKeyError(cause, 'rewrap-failed')) {
        // The server already has the new password; only the key re-encryption failed (spec section 8).
        setOldPassword('');
        setNewPassword('');
        setConfirmPassword('');
        setFeedback({ severity: 'warning', message: cause.message });
        warnPersistently(cause.message);
        return;
      }
      setFeedback({ severity: 'error', message: notify.error(cause).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingsSection
      title={intl.formatMessage(PROFILE_MESSAGES.passwordTitle)}
      description={intl.formatMessage(PROFILE_MESSAGES.passwordDescription)}
    >
      <Stack component="form" spacing={2.5} noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(PROFILE_MESSAGES.passwordTitle)}>
        <PasswordField
          label={intl.formatMessage(PROFILE_MESSAGES.oldPassword)}
          name="old_password"
          value={oldPassword}
          onChange={setOldPassword}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5}>
          <PasswordField
            id={errorLink.fieldId}
            label={intl.formatMessage(PROFILE_MESSAGES.newPassword)}
            name="new_password"
            autoComplete="new-password"
            value={newPassword}
            helperText={intl.formatMessage(PROFILE_MESSAGES.newPasswordHint, { min: NEW_PASSWORD_MIN_LENGTH })}
            onChange={setNewPassword}
            inputProps={errorLink.inputProps}
          />
          <PasswordField
            label={intl.formatMessage(PROFILE_MESSAGES.confirmPassword)}
            name="confirm_password"
            autoComplete="new-password"
            value={confirmPassword}
            error={mismatch}
            // eslint-disable-next-line formatjs/no-literal-string-in-jsx -- a space keeps the helper line's height, no text
            helperText={mismatch ? passwordMismatchText() : ' '}
            onChange={setConfirmPassword}
          />
        </Stack>
        <FormFeedback feedback={feedback} id={errorLink.messageId} />
        <Box>
          <Button type="submit" variant="contained" disabled={busy || !canSubmitPasswordChange(values)}>
            {intl.formatMessage(busy ? PROFILE_MESSAGES.changing : PROFILE_MESSAGES.changePassword)}
          </Button>
        </Box>
      </Stack>
    </SettingsSection>
  );
}
