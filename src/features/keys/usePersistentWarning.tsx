import Button from '@mui/material/Button';
import { useSnackbar, type SnackbarKey } from 'notistack';
import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { KEYS_UI } from './messages.ts';

/**
 * A warning notification that does not hide by itself (spec section 8: the re-encryption failure
 * after a password change is persistent); the user dismisses it.
 */
export function usePersistentWarning(): (message: string) => void {
  const intl = useIntl();
  const { enqueueSnackbar, closeSnackbar } = useSnackbar();
  return useCallback(
    (message: string) => {
      enqueueSnackbar(message, {
        variant: 'warning',
        persist: true,
        preventDuplicate: true,
        action: (key: SnackbarKey) => (
          <Button color="inherit" size="small" onClick={() => closeSnackbar(key)}>
            {intl.formatMessage(KEYS_UI.dismiss)}
          </Button>
        ),
      });
    },
    [enqueueSnackbar, closeSnackbar, intl],
  );
}
