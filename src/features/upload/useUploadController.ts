import { useEffect, useMemo } from 'react';
import { useAppDispatch, useAppStore } from '../../app/hooks.ts';
import { sharedCryptoPool } from '../../app/cryptoPool.ts';
import { browserTransport } from './transport/browserTransport.ts';
import { browserUploadJournal } from './resume/browserUploadJournal.ts';
import { UploadController, type UploadNotifier } from './uploadController.ts';

/** The page's controller; a running upload stops when the page goes away. */
export function useUploadController(notifier: UploadNotifier): UploadController {
  const store = useAppStore();
  const dispatch = useAppDispatch();
  const controller = useMemo(
    () => new UploadController({ dispatch, getState: store.getState, notifier, pool: sharedCryptoPool, transport: browserTransport, journal: browserUploadJournal() }),
    [dispatch, store, notifier],
  );
  // The crypto workers start when the page opens, not when the first file needs them: a pool
  // created and used at once sometimes got a worker that never ran (docs/upload.md, "Known issues").
  useEffect(() => {
    sharedCryptoPool();
  }, []);
  useEffect(() => () => controller.stop(), [controller]);
  return controller;
}
