import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useNotifier } from '../../app/notifier.ts';
import { PASSKEY_TEXTS } from '../../lib/userTexts.ts';
import { signInWithPasskey } from './passkeyFlows.ts';
import { passkeysSupported } from './webauthn.ts';

/**
 * "Sign in with a passkey" on the login page: no username, no code (the passkey is both factors).
 * Hidden where the browser has no WebAuthn; the password form stays as it is.
 */
export function PasskeySignInButton({ onError, disabled }: { onError(cause: unknown): void; disabled: boolean }) {
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const notify = useNotifier();
  const [busy, setBusy] = useState(false);
  if (!passkeysSupported()) return null;

  async function signIn() {
    setBusy(true);
    try {
      const outcome = await signInWithPasskey({ dispatch, pool: cryptoPool });
      if (outcome.kind === 'unlocked') notify.success(PASSKEY_TEXTS.unlockedWithPasskey);
      else notify.info(outcome.reason);
    } catch (cause) {
      onError(cause);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack spacing={2} sx={{ mt: 3 }}>
      <Divider>{PASSKEY_TEXTS.or}</Divider>
      <Button variant="outlined" size="large" fullWidth disabled={busy || disabled} onClick={() => void signIn()}>
        {busy ? PASSKEY_TEXTS.signingIn : PASSKEY_TEXTS.signIn}
      </Button>
    </Stack>
  );
}
