// The page an invitation's link opens (/invite/{token}): what the invitation is for, then username,
// password and confirmation. Accepting signs the new account in and goes on to the setup page
// (two-factor sign-in, key pair).
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import type { OpenInvitation } from '../../../contract/organisation.ts';
import { MIN_PASSWORD_LENGTH } from '../../../contract/common.ts';
import { describeApiError } from '../../api/errors.ts';
import { useAcceptInvitationMutation, useOpenInvitationMutation } from '../../api/orgApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { PasswordField } from '../../app/forms/index.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { ButtonLink } from '../../app/layout/links.tsx';
import { SealdropMark } from '../../app/layout/SealdropLogo.tsx';
import { INVITATION_TEXTS as T } from '../../lib/userTexts.ts';
import { sessionConfirmed } from '../auth/index.ts';
import { acceptanceBody, isInvitationRefusal } from './invitationAcceptance.ts';

/** `final`: the invitation itself refuses (used, revoked, expired, unknown); trying again cannot help. */
type PageState = { kind: 'checking' } | { kind: 'open'; invitation: OpenInvitation } | { kind: 'refused'; message: string; final: boolean };

export function InvitationPage({ token }: { token: string | null }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const cryptoPool = useCryptoPool();
  const [openInvitation] = useOpenInvitationMutation();
  const [accept] = useAcceptInvitationMutation();
  const [state, setState] = useState<PageState>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (token === null) {
      setState({ kind: 'refused', message: T.missingToken, final: true });
      return;
    }
    let current = true;
    setState({ kind: 'checking' });
    openInvitation({ token })
      .unwrap()
      .then(
        (invitation) => current && setState({ kind: 'open', invitation }),
        (cause: unknown) => {
          if (!current) return;
          const described = describeApiError(cause);
          setState({ kind: 'refused', message: described.message, final: isInvitationRefusal(described.serverCode) });
        },
      );
    return () => {
      current = false;
    };
  }, [token, attempt, openInvitation]);

  const problem = password.length > 0 && password.length < MIN_PASSWORD_LENGTH ? T.passwordTooShort : confirm.length > 0 && confirm !== password ? T.passwordsDiffer : null;
  const ready = username.trim().length > 0 && password.length >= MIN_PASSWORD_LENGTH && confirm === password;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!ready || token === null) return;
    setBusy(true);
    setError(null);
    try {
      const body = await acceptanceBody(cryptoPool(), token, username.trim(), password);
      const { user } = await accept(body).unwrap();
      dispatch(sessionConfirmed(user));
      await navigate({ to: '/welcome', replace: true });
    } catch (cause) {
      setError(describeApiError(cause).message);
      setBusy(false);
    }
  }

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 1, sm: 4 } }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 480, p: { xs: 3, sm: 5 } }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', mb: 3 }}>
          <SealdropMark size={48} />
          <Typography variant="h1" sx={{ mt: 2 }}>
            {T.title}
          </Typography>
        </Box>
        {state.kind === 'checking' && <LoadingMessage text={T.checking} />}
        {state.kind === 'refused' && (
          <Stack spacing={2}>
            <Alert
              severity="error"
              role="alert"
              action={state.final ? undefined : <Button color="inherit" onClick={() => setAttempt((count) => count + 1)}>{T.retry}</Button>}
            >
              <AlertTitle>{T.invalidTitle}</AlertTitle>
              {state.message}
            </Alert>
            <ButtonLink to="/login" variant="outlined">
              {T.toLogin}
            </ButtonLink>
          </Stack>
        )}
        {state.kind === 'open' && (
          <Stack component="form" spacing={2.5} noValidate onSubmit={(event) => void handleSubmit(event)} aria-label={T.title}>
            <Typography>{T.intro(state.invitation.email)}</Typography>
            <Typography variant="body2" color="text.secondary">
              {T.passwordNote}
            </Typography>
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
            <TextField
              label={T.usernameLabel}
              name="username"
              autoComplete="username"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              slotProps={{ htmlInput: { required: true } }}
            />
            <PasswordField label={T.passwordLabel} name="new-password" autoComplete="new-password" value={password} onChange={setPassword} inputProps={{ required: true }} />
            <PasswordField
              label={T.confirmLabel}
              name="confirm-password"
              autoComplete="new-password"
              value={confirm}
              onChange={setConfirm}
              error={problem}
              // eslint-disable-next-line formatjs/no-literal-string-in-jsx -- a blank line that keeps room for the error, not a text
              helperText=" "
              inputProps={{ required: true }}
            />
            <Button type="submit" variant="contained" size="large" disabled={busy || !ready}>
              {busy ? T.creating : T.submit}
            </Button>
          </Stack>
        )}
      </Paper>
    </Box>
  );
}
