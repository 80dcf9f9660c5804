import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useUpdateProfileMutation } from '../../api/authApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { rememberBoundBlock, selectCurrentUser } from '../auth/index.ts';
import { loginBoundTo } from '../../app/accountRekey.ts';
import { useAccountSecret } from '../../app/accountSecrets.ts';
import { useNotifier } from '../../app/notifier.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { PROFILE_MESSAGES } from './messages.ts';
import { planProfileUpdate, type ProfileField } from './profileValidation.ts';
import { PasswordField } from '../../app/forms/index.ts';

export function ProfileInfoSection() {
  const intl = useIntl();
  const user = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const notify = useNotifier();
  const [updateProfile] = useUpdateProfileMutation();
  const accountSecret = useAccountSecret();
  const [saving, setSaving] = useState(false);
  const [username, setUsername] = useState(user?.username ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [currentPassword, setCurrentPassword] = useState('');
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [invalidField, setInvalidField] = useState<ProfileField | null>(null);
  // The message is about the field the check found invalid; a refused save is about the password.
  const errorField = invalidField ?? 'currentPassword';
  const errorLink = useFieldErrorLink(feedback?.severity === 'error', { withHelperText: errorField === 'email' });

  if (!user) return null;
  // An account made by single sign-on has no password to confirm a change with, and its recovery
  // copy is bound to its name (docs/format.md): the provider's details are shown, not edited.
  if (!user.has_password) return <ProviderProfileInfo username={user.username} email={user.email} />;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    const plan = planProfileUpdate(user, { username, email, currentPassword });
    if (!plan.ok) {
      setFeedback({ severity: plan.severity, message: plan.message });
      setInvalidField(plan.field);
      return;
    }
    setFeedback(null);
    setInvalidField(null);
    setSaving(true);
    try {
      const { authSecret } = await accountSecret(plan.request.currentPassword);
      // The login's block is bound to the name: a new name (not just its letter case) re-keys it.
      const newName = plan.request.changes.username;
      const renamed = newName !== undefined && newName.toLowerCase() !== user.username.toLowerCase();
      const rekeyed = renamed ? await loginBoundTo({ dispatch, pool: cryptoPool() }, user, plan.request.currentPassword, newName) : {};
      const updated = await updateProfile({ current_auth_secret: authSecret, ...plan.request.changes, ...rekeyed }).unwrap();
      if (renamed) rememberBoundBlock(updated.username);
      setUsername(updated.username);
      setEmail(updated.email ?? '');
      setCurrentPassword('');
      const updatedText = intl.formatMessage(PROFILE_MESSAGES.profileUpdated);
      setFeedback({ severity: 'success', message: updatedText });
      notify.success(updatedText);
    } catch (cause) {
      const described = notify.error(cause);
      setFeedback({ severity: 'error', message: described.message });
      if (described.code === 'wrong-password') setInvalidField('currentPassword');
    } finally {
      setSaving(false);
    }
  }

  return (
    <SettingsSection title={intl.formatMessage(PROFILE_MESSAGES.infoTitle)} description={intl.formatMessage(PROFILE_MESSAGES.infoDescription)}>
      <Stack component="form" spacing={2.5} noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(PROFILE_MESSAGES.infoTitle)}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5}>
          <TextField
            label={intl.formatMessage(PROFILE_MESSAGES.username)}
            name="username"
            autoComplete="username"
            value={username}
            error={invalidField === 'username'}
            onChange={(event) => setUsername(event.target.value)}
            slotProps={{ htmlInput: { required: true, minLength: 3, ...(errorField === 'username' ? errorLink.inputProps : {}) } }}
          />
          <TextField
            id={errorLink.fieldId}
            label={intl.formatMessage(PROFILE_MESSAGES.email)}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            error={invalidField === 'email'}
            helperText={intl.formatMessage(PROFILE_MESSAGES.emailHint)}
            onChange={(event) => setEmail(event.target.value)}
            slotProps={{ htmlInput: errorField === 'email' ? errorLink.inputProps : {} }}
          />
        </Stack>
        <PasswordField
          label={intl.formatMessage(PROFILE_MESSAGES.currentPassword)}
          name="current_password"
          value={currentPassword}
          error={invalidField === 'currentPassword'}
          onChange={setCurrentPassword}
          inputProps={{ required: true, ...(errorField === 'currentPassword' ? errorLink.inputProps : {}) }}
        />
        <FormFeedback feedback={feedback} id={errorLink.messageId} />
        <Box>
          <Button type="submit" variant="contained" disabled={saving}>
            {intl.formatMessage(saving ? PROFILE_MESSAGES.saving : PROFILE_MESSAGES.saveChanges)}
          </Button>
        </Box>
      </Stack>
    </SettingsSection>
  );
}

function ProviderProfileInfo({ username, email }: { username: string; email: string | null }) {
  const intl = useIntl();
  return (
    <SettingsSection title={intl.formatMessage(PROFILE_MESSAGES.infoTitle)} description={intl.formatMessage(PROFILE_MESSAGES.infoFromProvider)}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5}>
        <TextField label={intl.formatMessage(PROFILE_MESSAGES.username)} name="username" value={username} slotProps={{ htmlInput: { readOnly: true } }} />
        <TextField label={intl.formatMessage(PROFILE_MESSAGES.email)} name="email" value={email ?? ''} slotProps={{ htmlInput: { readOnly: true } }} />
      </Stack>
    </SettingsSection>
  );
}
