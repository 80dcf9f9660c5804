// /sso: where single sign-on lands (docs/api.md "Single sign-on"). An account's first visit makes
// its key pair and shows the recovery key once; later visits unlock the key with this browser's
// copy at once; a browser without one unlocks with a passkey that holds a copy (offered first),
// asks an unlocked device (both show the same five words) or takes the recovery key. Every step
// ends in the dashboard, or in an error the person can retry.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isCryptoError } from '../../../workers/index.ts';
import { answeredWith, describeApiError } from '../../api/errors.ts';
import type { User } from '../../api/types.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { CRYPTO_ERROR_TEXTS, SSO_TEXTS as T } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { OrgRecoveryNotice } from './OrgRecoveryNotice.tsx';
import { useListPasskeysQuery } from '../../api/passkeysApi.ts';
import { passkeysSupported } from '../passkeys/index.ts';
import {
  askForApproval,
  createKeys,
  unlockWithAccountPasskey,
  unlockWithRecoveryKey,
  unlockWithThisDevice,
  waitForApproval,
  type PendingRequest,
} from './ssoFlows.ts';

type Step =
  | { kind: 'checking' }
  | { kind: 'setup'; busy: boolean }
  | { kind: 'recovery-key'; recoveryKey: string }
  | { kind: 'locked' }
  | { kind: 'failed'; reason: string };

function reasonOf(error: unknown): string {
  if (isCryptoError(error)) return CRYPTO_ERROR_TEXTS[error.code];
  return describeApiError(error).message;
}

export function SsoPage() {
  const user = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const pool = useCryptoPool();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: 'checking' });
  const started = useRef(false);
  const deps = { dispatch, pool };

  // Back to the screen that asked for the key (?next=, a path of this app only), else the dashboard.
  const toDashboard = useCallback(() => {
    const next = new URLSearchParams(window.location.search).get('next');
    if (next && /^\/[^/\\]/.test(next)) void navigate({ href: next });
    else void navigate({ to: '/dashboard' });
  }, [navigate]);

  const check = useCallback(
    async (current: User) => {
      setStep({ kind: 'checking' });
      try {
        if (!current.public_key_spki) return setStep({ kind: 'setup', busy: false });
        if ((await unlockWithThisDevice({ dispatch, pool }, current)) === 'unlocked') return toDashboard();
        setStep({ kind: 'locked' });
      } catch (error) {
        setStep({ kind: 'failed', reason: reasonOf(error) });
      }
    },
    [dispatch, pool, toDashboard],
  );

  useEffect(() => {
    if (!user || started.current) return;
    started.current = true;
    void check(user);
  }, [user, check]);

  if (!user) return null;

  async function setUp(current: User) {
    setStep({ kind: 'setup', busy: true });
    try {
      setStep({ kind: 'recovery-key', recoveryKey: await createKeys(deps, current) });
    } catch (error) {
      setStep({ kind: 'failed', reason: reasonOf(error) });
    }
  }

  return (
    <Stack sx={{ maxWidth: 640, mx: 'auto' }} spacing={3}>
      <PageHeader title={T.pageTitle} />
      {step.kind !== 'checking' && <OrgRecoveryNotice />}
      {step.kind === 'checking' && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={24} aria-hidden />
          <Typography>{T.checking}</Typography>
        </Stack>
      )}
      {step.kind === 'setup' && (
        <Stack spacing={2}>
          <Typography>{T.setupIntro}</Typography>
          <div>
            <Button variant="contained" disabled={step.busy} onClick={() => void setUp(user)}>
              {step.busy ? T.settingUp : T.setupButton}
            </Button>
          </div>
        </Stack>
      )}
      {step.kind === 'recovery-key' && <RecoveryKeyShown recoveryKey={step.recoveryKey} onDone={toDashboard} />}
      {step.kind === 'locked' && <LockedDevice user={user} deps={deps} onUnlocked={toDashboard} />}
      {step.kind === 'failed' && (
        <Stack spacing={2}>
          <Alert severity="error">{T.failed(step.reason)}</Alert>
          <div>
            <Button variant="outlined" onClick={() => void check(user)}>
              {T.retry}
            </Button>
          </div>
        </Stack>
      )}
    </Stack>
  );
}

function RecoveryKeyShown({ recoveryKey, onDone }: { recoveryKey: string; onDone(): void }) {
  const [stored, setStored] = useState(false);
  return (
    <Stack spacing={2}>
      <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
        {T.recoveryTitle}
      </Typography>
      <Typography>{T.recoveryIntro}</Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography component="p" data-testid="recovery-key" sx={{ fontFamily: 'monospace', fontSize: '1.1rem', overflowWrap: 'anywhere' }}>
          {recoveryKey}
        </Typography>
      </Paper>
      <FormControlLabel control={<Checkbox checked={stored} onChange={(event) => setStored(event.target.checked)} />} label={T.recoveryStored} />
      <div>
        <Button variant="contained" disabled={!stored} onClick={onDone}>
          {T.continue}
        </Button>
      </div>
    </Stack>
  );
}

function LockedDevice({ user, deps, onUnlocked }: { user: User; deps: Parameters<typeof unlockWithRecoveryKey>[0]; onUnlocked(): void }) {
  const [request, setRequest] = useState<PendingRequest | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [recoveryKey, setRecoveryKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [askingPasskey, setAskingPasskey] = useState(false);
  const waiting = useRef<AbortController | null>(null);
  const notify = useNotifier();
  // A passkey comes first when the account has one that holds a copy of its current key.
  const supported = passkeysSupported();
  const passkeys = useListPasskeysQuery(undefined, { skip: !supported }).data?.passkeys ?? [];
  const withPasskey = supported && passkeys.some((each) => each.unlocks_keys);

  useEffect(() => () => waiting.current?.abort(), []);

  // Said aloud once: the person waited for another device or typed the key, and this browser is trusted from now on.
  function unlocked() {
    notify.success(T.unlocked);
    onUnlocked();
  }

  async function ask() {
    setError(null);
    setBusy(true);
    waiting.current?.abort();
    const controller = new AbortController();
    waiting.current = controller;
    try {
      const pending = await askForApproval(deps);
      setRequest(pending);
      await waitForApproval(deps, user, pending, controller.signal);
      unlocked();
    } catch (cause) {
      if (controller.signal.aborted) return;
      setRequest(null);
      setError(answeredWith(describeApiError(cause), 'APPROVAL_NOT_FOUND') ? T.approvalExpired : T.failed(reasonOf(cause)));
    } finally {
      setBusy(false);
    }
  }

  async function passkey() {
    setError(null);
    setBusy(true);
    setAskingPasskey(true);
    waiting.current?.abort();
    setRequest(null);
    try {
      const outcome = await unlockWithAccountPasskey(deps, user);
      if (outcome === 'unlocked') unlocked();
      else setError(outcome === 'no-prf' ? T.passkeyNoPrf : T.passkeyNoCopy);
    } catch (cause) {
      setError(T.failed(reasonOf(cause)));
    } finally {
      setBusy(false);
      setAskingPasskey(false);
    }
  }

  async function recover(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await unlockWithRecoveryKey(deps, user, recoveryKey);
      unlocked();
    } catch (cause) {
      setError(isCryptoError(cause) && (cause.code === 'WRONG_KEY' || cause.code === 'MALFORMED') ? T.wrongRecovery : T.failed(reasonOf(cause)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack spacing={3}>
      <Typography>{withPasskey ? T.lockedIntroPasskey : T.lockedIntro}</Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {withPasskey && (
        <div>
          <Button variant="contained" disabled={busy} onClick={() => void passkey()}>
            {askingPasskey ? T.waitingForPasskey : T.unlockWithPasskey}
          </Button>
        </div>
      )}
      {request ? (
        <Stack spacing={1} role="status">
          <Typography>{T.compareWords}</Typography>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography data-testid="approval-phrase" sx={{ fontSize: '1.25rem', fontWeight: 600 }}>
              {request.phrase}
            </Typography>
          </Paper>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <CircularProgress size={18} aria-hidden />
            <Typography>{T.waiting}</Typography>
          </Stack>
        </Stack>
      ) : (
        <div>
          <Button variant={withPasskey ? 'outlined' : 'contained'} disabled={busy} onClick={() => void ask()}>
            {T.askApproval}
          </Button>
        </div>
      )}
      <Box component="form" onSubmit={(event) => void recover(event)} noValidate>
        <Stack spacing={2}>
          <TextField label={T.recoveryLabel} value={recoveryKey} onChange={(event) => setRecoveryKey(event.target.value)} autoComplete="off" spellCheck={false} />
          <div>
            <Button type="submit" variant="outlined" disabled={busy || recoveryKey.trim() === ''}>
              {T.useRecovery}
            </Button>
          </div>
        </Stack>
      </Box>
    </Stack>
  );
}
