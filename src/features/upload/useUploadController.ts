import { useEffect, useMemo } from 'react';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppStore } from '../../app/hooks.ts';
import { browserTransport } from './transport/browserTransport.ts';
import { browserUploadJournal } from './resume/browserUploadJournal.ts';
import { UploadController, type UploadNotifier } from './uploadController.ts';

/** The page's controller; a running upload stops when the page goes away. */
export function useUploadController(notifier: UploadNotifier): UploadController {
  const store = useAppStore();
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const controller = useMemo(
    () => new UploadController({ dispatch, getState: store.getState, notifier, pool: cryptoPool, transport: browserTransport, journal: browserUploadJournal(cryptoPool) }),
    [dispatch, store, notifier, cryptoPool],
  );
  // The crypto workers start when the page opens, not when the first file needs them: a pool
  // created and used at once sometimes got a worker that never ran (docs/upload.md, "Known issues").
  useEffect(() => {
    cryptoPool();
  }, [cryptoPool]);
  useEffect(() => () => controller.stop(), [controller]);
  return controller;
}
