import { useSnackbar } from 'notistack';
import { useMemo } from 'react';
import { describeApiError, type ApiErrorInfo } from '../api/errors.ts';

export interface Notifier {
  success(message: string): void;
  info(message: string): void;
  warning(message: string): void;
  /** Maps the error through the spec's catalogue, toasts it unless the catalogue says not to, returns it. */
  error(error: unknown): ApiErrorInfo;
  /** Toasts an error that was already mapped (e.g. returned by a thunk). */
  report(described: ApiErrorInfo): void;
}

export function useNotifier(): Notifier {
  const { enqueueSnackbar } = useSnackbar();
  return useMemo(
    () => ({
      success: (message) => enqueueSnackbar(message, { variant: 'success' }),
      info: (message) => enqueueSnackbar(message, { variant: 'info' }),
      warning: (message) => enqueueSnackbar(message, { variant: 'warning' }),
      error: (error) => {
        const described = describeApiError(error);
        if (described.toast) enqueueSnackbar(described.message, { variant: 'error' });
        return described;
      },
      report: (described) => {
        if (described.toast) enqueueSnackbar(described.message, { variant: 'error' });
      },
    }),
    [enqueueSnackbar],
  );
}
