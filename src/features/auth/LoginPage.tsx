import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { SealdropMark } from '../../app/layout/SealdropLogo.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { selectAuthNotice, selectAuthStatus } from './authSlice.ts';
import { LoginCodeStep } from './LoginCodeStep.tsx';
import { LoginPasswordStep } from './LoginPasswordStep.tsx';
import { AUTH_MESSAGES } from './messages.ts';
import { SIX_DIGITS } from './loginResponse.ts';
import { OldSchemeConfirmation } from './OldSchemeConfirmation.tsx';
import { bindSignIn, submitCodeStep, submitOldSchemePassword, submitPasswordStep, upgradeSignIn, type PasswordStepOutcome } from './signIn.ts';
import type { AccountSecret } from '../../app/accountSecrets.ts';
import { SIGN_IN_TEXTS } from '../../lib/userTexts.ts';
import { PasskeySignInButton } from '../passkeys/index.ts';
import { SsoSignInButton, ssoRefusalText, usePasswordSignIn } from '../sso/index.ts';
import type { User } from '../../api/types.ts';

type Step = 'password' | 'code';
type Busy = null | 'checking' | 'verifying' | 'upgrading';

/**
 * Admin Login: step one username + password, step two the authenticator code (spec sections 2, 4,
 * 5). The password goes to a crypto worker, which derives what is sent (signIn.ts); an account
 * made before that change sends it once and is moved to the new sign-in before the session starts.
 */
export function LoginPage() {
  const intl = useIntl();
  const status = useAppSelector(selectAuthStatus);
  const notice = useAppSelector(selectAuthNotice);
  const navigate = useNavigate();
  const notify = useNotifier();
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const [busy, setBusy] = useState<Busy>(null);
  const passwordSignIn = usePasswordSignIn();
  // Read once: the refusal the single sign-on callback sent this page back with.
  const [ssoRefusal] = useState(() => ssoRefusalText());
  // The code step of an account of the old scheme: the upgrade follows it, with the typed password.
  const [upgradeFollows, setUpgradeFollows] = useState(false);
  // The code step of an account whose block is not bound to its name: the move follows it.
  const [unboundSecret, setUnboundSecret] = useState<AccountSecret | null>(null);
  // The server asked for the password itself: nothing is sent until the person confirms it.
  const [confirmingOldScheme, setConfirmingOldScheme] = useState(false);

  const [step, setStep] = useState<Step>('password');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeUsername, setCodeUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  const errorLink = useFieldErrorLink(error !== null);

  // A successful step stores the user (auth slice); this is the single way out of the page.
  useEffect(() => {
    if (status === 'authenticated') void navigate({ to: '/dashboard', replace: true });
  }, [status, navigate]);

  function fail(cause: unknown) {
    setError(notify.error(cause).message);
  }

  const deps = () => ({ dispatch, pool: cryptoPool() });

  async function upgrade(user: User) {
    setBusy('upgrading');
    try {
      await upgradeSignIn(deps(), user, password);
    } catch (cause) {
      backToPassword();
      fail(cause);
    }
  }

  async function submitPassword() {
    setError(null);
    if (!username.trim() || !password) {
      setError(intl.formatMessage(AUTH_MESSAGES.credentialsRequired));
      return;
    }
    setBusy('checking');
    try {
      await follow(await submitPasswordStep(deps(), username.trim(), password));
    } catch (cause) {
      fail(cause);
    } finally {
      setBusy(null);
    }
  }

  async function follow(outcome: PasswordStepOutcome) {
    if (outcome.kind === 'old-scheme-confirmation') setConfirmingOldScheme(true);
    if (outcome.kind === 'code-required') {
      setCodeUsername(outcome.username);
      setUpgradeFollows(outcome.upgradeFollows);
      setUnboundSecret(outcome.unboundSecret ?? null);
      setCode('');
      setStep('code');
    }
    if (outcome.kind === 'upgrade-required') await upgrade(outcome.user);
  }

  async function sendOldSchemePassword() {
    setConfirmingOldScheme(false);
    setBusy('checking');
    try {
      await follow(await submitOldSchemePassword(deps(), username.trim(), password));
    } catch (cause) {
      fail(cause);
    } finally {
      setBusy(null);
    }
  }

  function cancelOldScheme() {
    setConfirmingOldScheme(false);
    setPassword('');
  }

  async function submitCode() {
    setError(null);
    if (!SIX_DIGITS.test(code)) {
      setError(intl.formatMessage(AUTH_MESSAGES.codeRequired));
      return;
    }
    setBusy('verifying');
    try {
      const user = await submitCodeStep(deps(), codeUsername, code, upgradeFollows);
      if (upgradeFollows) await upgrade(user);
      else if (unboundSecret) await bindSignIn(deps(), user, password, unboundSecret);
    } catch (cause) {
      setCode('');
      fail(cause);
    } finally {
      setBusy(null);
    }
  }

  function backToPassword() {
    setStep('password');
    setPassword('');
    setCode('');
    setUpgradeFollows(false);
    setUnboundSecret(null);
    setError(null);
  }

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 1, sm: 4 } }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 5 } }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', mb: 3 }}>
          <SealdropMark size={48} />
          <Typography variant="h1" sx={{ mt: 2 }}>
            {intl.formatMessage(AUTH_MESSAGES.pageTitle)}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.75 }}>
            {intl.formatMessage(step === 'password' ? AUTH_MESSAGES.pageSubtitle : AUTH_MESSAGES.twoStepSubtitle)}
          </Typography>
        </Box>
        {step === 'password' && <SsoSignInButton disabled={busy !== null} />}
        {ssoRefusal && !error && step === 'password' && (
          <Alert severity="error" sx={{ mb: 2.5 }}>
            {ssoRefusal}
          </Alert>
        )}
        {notice && !error && step === 'password' && (
          <Alert severity="info" sx={{ mb: 2.5 }}>
            {notice}
          </Alert>
        )}
        {error && (
          <Alert id={errorLink.messageId} severity="error" sx={{ mb: 2.5 }}>
            {error}
          </Alert>
        )}
        {busy === 'upgrading' && (
          <Alert severity="info" sx={{ mb: 2.5 }} role="status">
            {SIGN_IN_TEXTS.upgrading}
          </Alert>
        )}
        {confirmingOldScheme && step === 'password' && <OldSchemeConfirmation onSend={sendOldSchemePassword} onCancel={cancelOldScheme} />}
        {step === 'password' && passwordSignIn === null && <LoadingMessage text={intl.formatMessage(AUTH_MESSAGES.loadingStatus)} />}
        {step === 'password' && !passwordSignIn ? null : step === 'password' ? (
          <LoginPasswordStep
            username={username}
            password={password}
            busy={busy === 'checking' || busy === 'upgrading' || confirmingOldScheme}
            onUsernameChange={(value) => {
              setConfirmingOldScheme(false);
              setUsername(value);
            }}
            onPasswordChange={(value) => {
              setConfirmingOldScheme(false);
              setPassword(value);
            }}
            onSubmit={submitPassword}
            errorInputProps={errorLink.inputProps}
          />
        ) : (
          <LoginCodeStep
            username={codeUsername}
            code={code}
            busy={busy === 'verifying' || busy === 'upgrading'}
            onCodeChange={setCode}
            onSubmit={submitCode}
            onBackToPassword={backToPassword}
            errorInputProps={errorLink.inputProps}
          />
        )}
        {step === 'password' && passwordSignIn === true && <PasskeySignInButton onError={fail} disabled={busy !== null} />}
      </Paper>
    </Box>
  );
}
