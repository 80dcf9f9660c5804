// The public page's steps (spec section 4, Download page): loading, then password required (1),
// ready (2) or error (3). Without a password the keys come from the fragment at once; with one,
// after 'Unlock Files'. A wrong password stays at step 1; an unknown, deleted or expired link
// (404/410 from any call) ends in the error step with the server's text.

import { useCallback, useEffect, useRef, useState } from 'react';
import { answeredWith, describeApiError } from '../../api/errors.ts';
import { linksApi, type SharedFile } from '../../api/linksApi.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useNotifier } from '../../app/notifier.ts';
import { DOWNLOAD_PAGE_MESSAGES } from '../../lib/userTexts.ts';
import {
  checkReleasedKeys,
  fragmentOf,
  importFragmentKeys,
  LinkKeyError,
  linkPasswordVerifier,
  openPasswordKeys,
  pinnedLinkKdf,
  removeFragmentFromAddressBar,
  type LinkKdfPin,
  type LinkKeys,
} from './linkKeyImport.ts';

export type LinkAccessState =
  | { step: 'loading' }
  | { step: 'password'; files: SharedFile[]; kdfParams: string; pin: LinkKdfPin; busy: boolean; error: string | null }
  | { step: 'ready'; files: SharedFile[]; keys: LinkKeys }
  | { step: 'error'; message: string };

/** The link itself is unknown (404) or expired (410): the page cannot recover from that. */
function linkIsGone(error: unknown): boolean {
  const described = describeApiError(error);
  return answeredWith(described, 'LINK_NOT_FOUND', 404) || answeredWith(described, 'LINK_EXPIRED', 410);
}

export function useLinkAccess(linkToken: string | null): { state: LinkAccessState; unlock(password: string): Promise<void> } {
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const notify = useNotifier();
  // Read once: the fragment is removed from the address bar after import, and StrictMode runs
  // the effect twice in development.
  const [fragment] = useState(() => fragmentOf(window.location.hash));
  const [state, setState] = useState<LinkAccessState>(() =>
    linkToken === null ? { step: 'error', message: DOWNLOAD_PAGE_MESSAGES.tokenMissing } : { step: 'loading' },
  );
  const heldKeys = useRef<LinkKeys | null>(null);

  const adoptKeys = useCallback(
    (files: SharedFile[], keys: LinkKeys) => {
      if (heldKeys.current) void cryptoPool().releaseKeys(heldKeys.current.values());
      heldKeys.current = keys;
      setState({ step: 'ready', files, keys });
    },
    [cryptoPool],
  );

  useEffect(() => {
    if (linkToken === null) {
      setState({ step: 'error', message: DOWNLOAD_PAGE_MESSAGES.tokenMissing });
      return;
    }
    let cancelled = false;
    setState({ step: 'loading' });
    const request = dispatch(linksApi.endpoints.getDownloadLinkStatus.initiate(linkToken, { forceRefetch: true }));
    void (async () => {
      try {
        const status = await request.unwrap();
        if (cancelled) return;
        if (status.requires_password) {
          // The pin is checked before the password is even asked for: a swapped block ends here.
          const pin = pinnedLinkKdf(fragment, status.kdf_params);
          setState({ step: 'password', files: status.files, kdfParams: status.kdf_params!, pin, busy: false, error: null });
          return;
        }
        const keys = await importFragmentKeys(cryptoPool(), fragment, status.files);
        if (cancelled) {
          void cryptoPool().releaseKeys(keys.values());
          return;
        }
        removeFragmentFromAddressBar();
        adoptKeys(status.files, keys);
      } catch (error) {
        if (!cancelled) setState({ step: 'error', message: describeApiError(error).message });
      }
    })();
    return () => {
      cancelled = true;
      request.unsubscribe();
    };
  }, [dispatch, cryptoPool, linkToken, fragment, adoptKeys]);

  // The keys leave the workers when the page goes away.
  useEffect(
    () => () => {
      if (heldKeys.current) void cryptoPool().releaseKeys(heldKeys.current.values());
      heldKeys.current = null;
    },
    [cryptoPool],
  );

  const unlock = useCallback(
    async (password: string) => {
      if (state.step !== 'password' || state.busy || linkToken === null) return;
      const { files, kdfParams, pin } = state;
      if (password === '') {
        setState({ ...state, error: DOWNLOAD_PAGE_MESSAGES.passwordRequired });
        return;
      }
      setState({ ...state, busy: true, error: null });
      try {
        const pool = cryptoPool();
        const verifier = await linkPasswordVerifier(pool, password, kdfParams);
        const { reencrypted_keys } = await dispatch(linksApi.endpoints.verifyDownloadLinkPassword.initiate({ linkToken, verifier })).unwrap();
        checkReleasedKeys(reencrypted_keys, pin);
        adoptKeys(files, await openPasswordKeys(pool, password, reencrypted_keys));
      } catch (error) {
        const described = notify.error(error);
        // A wrong password is the server's answer (the form stays); keys that do not open are final.
        if (linkIsGone(error) || error instanceof LinkKeyError) {
          setState({ step: 'error', message: described.message });
        } else {
          setState({ step: 'password', files, kdfParams, pin, busy: false, error: described.message });
        }
      }
    },
    [state, linkToken, dispatch, cryptoPool, notify, adoptKeys],
  );

  return { state, unlock };
}
