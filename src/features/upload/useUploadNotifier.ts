import { useSnackbar } from 'notistack';
import { useMemo } from 'react';
import { NOTICE_MS, type UploadNotifier } from './uploadController.ts';

/** Notifications of the upload page: 4 s unless told otherwise (spec section 9). */
export function useUploadNotifier(): UploadNotifier {
  const { enqueueSnackbar } = useSnackbar();
  return useMemo(
    () => ({
      show: (variant, message, durationMs = NOTICE_MS.page) => {
        enqueueSnackbar(message, { variant, autoHideDuration: durationMs });
      },
    }),
    [enqueueSnackbar],
  );
}
