import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useSnackbar } from 'notistack';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { describeApiError } from '../../api/errors.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import type { PrivateKeyHandle } from '../../../workers/index.ts';
import { KEY_MESSAGES } from '../../lib/userTexts.ts';
import { unlockPrivateKey } from './keyThunks.ts';
import { KEYS_UI } from './messages.ts';
import { DialogChoice, PasswordField } from '../../app/forms/index.ts';

/** Spec section 9: key-loaded notice 2 s, key-error notice 5 s. */
export const KEY_LOADED_NOTICE_MS = 2000;
export const KEY_ERROR_NOTICE_MS = 5000;

type UnlockState = { step: 'entering' } | { step: 'unlocking' } | { step: 'keyLoaded'; handle: PrivateKeyHandle } | { step: 'error'; message: string };

interface PrivateKeyUnlockDialogProps {
  open: boolean;
  /** After Continue: the pending action runs with the unlocked key. */
  onContinue(handle: PrivateKeyHandle): void;
  onCancel(): void;
}

/**
 * 'Login Password Required' (spec section 4, Private-key unlock): entering, then keyLoaded
 * (Continue) or error (Try Again / Cancel). The password goes to the worker pool and is then
 * dropped from this component.
 */
export function PrivateKeyUnlockDialog({ open, onContinue, onCancel }: PrivateKeyUnlockDialogProps) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const { enqueueSnackbar } = useSnackbar();
  const titleId = useId();
  const [state, setState] = useState<UnlockState>({ step: 'entering' });
  const [password, setPassword] = useState('');
  const [inlineError, setInlineError] = useState<string | null>(null);

  useEffect(() => {
    if (open) {
      setState({ step: 'entering' });
      setPassword('');
      setInlineError(null);
    }
  }, [open]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setInlineError(KEY_MESSAGES.unlockPasswordRequired);
      return;
    }
    setInlineError(null);
    setState({ step: 'unlocking' });
    try {
      const handle = await dispatch(unlockPrivateKey(cryptoPool(), password));
      setState({ step: 'keyLoaded', handle });
      enqueueSnackbar(KEY_MESSAGES.keyUnlocked, { variant: 'success', autoHideDuration: KEY_LOADED_NOTICE_MS });
    } catch (error) {
      const described = describeApiError(error);
      setState({ step: 'error', message: described.message });
      if (described.toast) enqueueSnackbar(described.message, { variant: 'error', autoHideDuration: KEY_ERROR_NOTICE_MS });
    } finally {
      setPassword('');
    }
  }

  const busy = state.step === 'unlocking';

  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} maxWidth="xs">
      <DialogTitle id={titleId}>{intl.formatMessage(KEYS_UI.unlockTitle)}</DialogTitle>
      {(state.step === 'entering' || state.step === 'unlocking') && (
        <Stack component="form" noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(KEYS_UI.unlockFormLabel)}>
          <DialogContent sx={{ pt: 0 }}>
            <DialogContentText sx={{ mb: 2.5 }}>
              {intl.formatMessage(KEYS_UI.unlockIntro)}
            </DialogContentText>
            <PasswordField
              label={intl.formatMessage(KEYS_UI.unlockPassword)}
              name="password"
              autoFocus
              value={password}
              disabled={busy}
              error={inlineError !== null}
              // eslint-disable-next-line formatjs/no-literal-string-in-jsx -- a space keeps the helper line's height, no text
              helperText={inlineError ?? ' '}
              onChange={setPassword}
            />
          </DialogContent>
          <DialogChoice
            dismissLabel={intl.formatMessage(KEYS_UI.cancel)}
            onDismiss={onCancel}
            confirmLabel={intl.formatMessage(busy ? KEYS_UI.unlocking : KEYS_UI.unlockSubmit)}
            busy={busy}
          />
        </Stack>
      )}
      {state.step === 'keyLoaded' && (
        <>
          <DialogContent sx={{ pt: 0 }}>
            <Alert severity="success" role="status">
              {KEY_MESSAGES.keyUnlocked}
            </Alert>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button variant="contained" autoFocus onClick={() => onContinue(state.handle)}>
              {intl.formatMessage(KEYS_UI.unlockContinue)}
            </Button>
          </DialogActions>
        </>
      )}
      {state.step === 'error' && (
        <>
          <DialogContent sx={{ pt: 0 }}>
            <Alert severity="error" role="alert">
              {state.message}
            </Alert>
          </DialogContent>
          <DialogChoice
            dismissLabel={intl.formatMessage(KEYS_UI.cancel)}
            onDismiss={onCancel}
            confirmLabel={intl.formatMessage(KEYS_UI.unlockTryAgain)}
            onConfirm={() => setState({ step: 'entering' })}
            autoFocusConfirm
          />
        </>
      )}
    </Dialog>
  );
}
