import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useIntl } from 'react-intl';
import type { FieldErrorLink } from '../../app/layout/fieldError.ts';
import { PasswordField } from '../../app/forms/index.ts';
import { AUTH_MESSAGES } from './messages.ts';

interface LoginPasswordStepProps {
  username: string;
  password: string;
  busy: boolean;
  onUsernameChange(value: string): void;
  onPasswordChange(value: string): void;
  onSubmit(): void;
  /** Ties the page's error message to both fields. */
  errorInputProps: FieldErrorLink['inputProps'];
}

export function LoginPasswordStep(props: LoginPasswordStepProps) {
  const intl = useIntl();
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    props.onSubmit();
  }

  return (
    <Stack component="form" spacing={2.5} noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(AUTH_MESSAGES.passwordFormLabel)}>
      <TextField
        label={intl.formatMessage(AUTH_MESSAGES.username)}
        name="username"
        autoFocus
        autoComplete="username"
        value={props.username}
        onChange={(event) => props.onUsernameChange(event.target.value)}
        // `required` on the input, not the TextField: keeps the accessible name free of the asterisk.
        slotProps={{ htmlInput: { required: true, ...props.errorInputProps } }}
      />
      <PasswordField
        label={intl.formatMessage(AUTH_MESSAGES.password)}
        name="password"
        value={props.password}
        onChange={props.onPasswordChange}
        inputProps={{ required: true, ...props.errorInputProps }}
      />
      <Button type="submit" variant="contained" size="large" disabled={props.busy}>
        {intl.formatMessage(props.busy ? AUTH_MESSAGES.checking : AUTH_MESSAGES.signIn)}
      </Button>
    </Stack>
  );
}
