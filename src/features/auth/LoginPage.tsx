import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useLoginMutation, useLoginWithCodeMutation } from '../../api/authApi.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { SealdropMark } from '../../app/layout/SealdropLogo.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { selectAuthNotice, selectAuthStatus } from './authSlice.ts';
import { LoginCodeStep } from './LoginCodeStep.tsx';
import { LoginPasswordStep } from './LoginPasswordStep.tsx';
import { interpretCodeStep, interpretPasswordStep, SIX_DIGITS } from './loginResponse.ts';

type Step = 'password' | 'code';

/** Admin Login: step one username + password, step two the authenticator code (spec sections 2, 4, 5). */
export function LoginPage() {
  const status = useAppSelector(selectAuthStatus);
  const notice = useAppSelector(selectAuthNotice);
  const navigate = useNavigate();
  const notify = useNotifier();
  const [login, { isLoading: checking }] = useLoginMutation();
  const [loginWithCode, { isLoading: verifying }] = useLoginWithCodeMutation();

  const [step, setStep] = useState<Step>('password');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeUsername, setCodeUsername] = useState('');
  const [error, setError] = useState<string | null>(null);

  // A successful step stores the user (auth slice); this is the single way out of the page.
  useEffect(() => {
    if (status === 'authenticated') void navigate({ to: '/dashboard', replace: true });
  }, [status, navigate]);

  function fail(cause: unknown) {
    setError(notify.error(cause).message);
  }

  async function submitPassword() {
    setError(null);
    if (!username.trim() || !password) {
      setError('Please enter your username and password.');
      return;
    }
    try {
      const outcome = interpretPasswordStep(await login({ username: username.trim(), password }).unwrap(), username.trim());
      if (outcome.kind === 'code-required') {
        setCodeUsername(outcome.username);
        setCode('');
        setStep('code');
      }
    } catch (cause) {
      fail(cause);
    }
  }

  async function submitCode() {
    setError(null);
    if (!SIX_DIGITS.test(code)) {
      setError('Please enter the 6-digit code from your authenticator app.');
      return;
    }
    try {
      interpretCodeStep(await loginWithCode({ username: codeUsername, code }).unwrap());
    } catch (cause) {
      setCode('');
      fail(cause);
    }
  }

  function backToPassword() {
    setStep('password');
    setPassword('');
    setCode('');
    setError(null);
  }

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 1, sm: 4 } }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 5 } }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', mb: 3 }}>
          <SealdropMark size={48} />
          <Typography variant="h1" sx={{ mt: 2 }}>
            Admin Login
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.75 }}>
            {step === 'password' ? 'Sign in to manage your folders and files.' : 'Two-step verification'}
          </Typography>
        </Box>
        {notice && !error && step === 'password' && (
          <Alert severity="info" sx={{ mb: 2.5 }}>
            {notice}
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mb: 2.5 }}>
            {error}
          </Alert>
        )}
        {step === 'password' ? (
          <LoginPasswordStep
            username={username}
            password={password}
            busy={checking}
            onUsernameChange={setUsername}
            onPasswordChange={setPassword}
            onSubmit={submitPassword}
          />
        ) : (
          <LoginCodeStep
            username={codeUsername}
            code={code}
            busy={verifying}
            onCodeChange={setCode}
            onSubmit={submitCode}
            onBackToPassword={backToPassword}
          />
        )}
      </Paper>
    </Box>
  );
}
