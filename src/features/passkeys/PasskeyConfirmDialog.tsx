import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { answeredWith, describeApiError } from '../../api/errors.ts';
import { ssoStartPath } from '../../api/ssoApi.ts';
import { useAccountSecret } from '../../app/accountSecrets.ts';
import { PasswordField } from '../../app/forms/index.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useNotifier } from '../../app/notifier.ts';
import { PASSKEY_TEXTS } from '../../lib/userTexts.ts';
import { confirmWithPasskey, confirmWithPassword, dropConfirmation, type Confirmation } from './passkeyFlows.ts';

interface PasskeyConfirmDialogProps {
  readonly title: string;
  readonly submitLabel: string;
  /** Fields of the action itself (a name), above the confirmation. */
  readonly children?: ReactNode;
  /** The action's own check before anything is sent: a message, or null when it may go ahead. */
  readonly validate?: () => string | null;
  /** Offer "Use an existing passkey" (the account has one and the browser has WebAuthn). */
  readonly canUsePasskey: boolean;
  /** The action, once the server has the fresh confirmation. */
  readonly onConfirmed: (confirmation: Confirmation) => Promise<void>;
  readonly onClose: () => void;
  /**
   * An account without a password (single sign-on): no password field; it confirms with a passkey
   * or by signing in again at `sso.name` (back to `sso.returnTo`), and Continue runs the action at
   * once with `sso.confirmation`, which the server takes within five minutes of a sign-in there.
   */
  readonly sso?: { readonly name: string; readonly returnTo: string; readonly confirmation: () => Confirmation } | null;
}

/**
 * Adding, renaming and removing a passkey ask for the login password or an existing passkey again
 * (docs/api.md "Passkeys", re-authentication); the action runs right after the confirmation, so
 * the password is held only for this one submit. An account without a password confirms with a
 * passkey or by signing in again at its provider, whose fresh sign-in the server counts.
 */
export function PasskeyConfirmDialog({ title, submitLabel, children, validate, canUsePasskey, onConfirmed, onClose, sso }: PasskeyConfirmDialogProps) {
  const dispatch = useAppDispatch();
  const notify = useNotifier();
  const accountSecret = useAccountSecret();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const errorId = useId();

  async function run(confirm: () => Promise<Confirmation>) {
    const problem = validate?.() ?? null;
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setBusy(true);
    let confirmation: Confirmation | null = null;
    try {
      confirmation = await confirm();
      await onConfirmed(confirmation);
      onClose();
    } catch (cause) {
      setPassword('');
      // Its own words for an account without a password: the server's text names the password.
      if (sso && answeredWith(describeApiError(cause), 'PASSKEY_REAUTH_REQUIRED')) setError(PASSKEY_TEXTS.reauthNeededSso(sso.name));
      else setError(notify.error(cause).message);
    } finally {
      dropConfirmation(confirmation);
      setBusy(false);
    }
  }

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    if (sso) {
      void run(async () => sso.confirmation());
      return;
    }
    if (!password) {
      setError(validate?.() ?? PASSKEY_TEXTS.passwordRequired);
      return;
    }
    const typed = password;
    void run(async () => confirmWithPassword(dispatch, (await accountSecret(typed)).authSecret, typed));
  }

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form noValidate onSubmit={submitPassword}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 0.5 }}>
            {error && (
              <Alert id={errorId} severity="error">
                {error}
              </Alert>
            )}
            {children}
            <DialogContentText>{sso ? PASSKEY_TEXTS.confirmTextSso(sso.name) : PASSKEY_TEXTS.confirmText}</DialogContentText>
            {!sso && (
              <PasswordField
                label={PASSKEY_TEXTS.password}
                name="password"
                value={password}
                onChange={setPassword}
                disabled={busy}
                inputProps={error ? { 'aria-describedby': errorId } : {}}
                fullWidth
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1, px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy}>
            {PASSKEY_TEXTS.cancel}
          </Button>
          {canUsePasskey && (
            <Button variant="outlined" disabled={busy} onClick={() => void run(() => confirmWithPasskey(dispatch))}>
              {PASSKEY_TEXTS.confirmWithPasskey}
            </Button>
          )}
          {sso && (
            <Button variant="outlined" disabled={busy} href={ssoStartPath(sso.returnTo)}>
              {PASSKEY_TEXTS.signInAgain(sso.name)}
            </Button>
          )}
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? PASSKEY_TEXTS.confirming : submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
