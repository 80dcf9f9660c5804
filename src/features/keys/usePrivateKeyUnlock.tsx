import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { selectCurrentUser } from '../auth/index.ts';
import type { PrivateKeyHandle } from '../../../workers/index.ts';
import { selectPrivateKey } from './keysSlice.ts';
import { PrivateKeyUnlockDialog } from './PrivateKeyUnlockDialog.tsx';

export interface PrivateKeyUnlock {
  /**
   * The session's private key: at once when it is already unlocked, otherwise after the 'Login
   * Password Required' dialog ends with Continue. null when the user cancels.
   */
  requestPrivateKey(): Promise<PrivateKeyHandle | null>;
  /** Render this once in the screen that calls requestPrivateKey. */
  unlockDialog: ReactNode;
}

/**
 * For the files screen (downloads, link creation): "downloading without a cached private key first
 * prompts for the login password; after Continue the pending action runs" (spec section 4).
 */
export function usePrivateKeyUnlock(): PrivateKeyUnlock {
  const privateKey = useAppSelector(selectPrivateKey);
  // An account made by single sign-on has no password to type: its devices unlock it, on /sso.
  const passwordless = useAppSelector(selectCurrentUser)?.has_password === false;
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const pending = useRef<((handle: PrivateKeyHandle | null) => void) | null>(null);


  const finish = useCallback((handle: PrivateKeyHandle | null) => {
    setOpen(false);
    const resolve = pending.current;
    pending.current = null;
    resolve?.(handle);
  }, []);

  const requestPrivateKey = useCallback((): Promise<PrivateKeyHandle | null> => {
    if (privateKey) return Promise.resolve(privateKey);
    if (passwordless) {
      // /sso unlocks with this browser's copy (or asks how) and comes back here; the person then
      // repeats the action.
      void navigate({ href: `/sso?next=${encodeURIComponent(window.location.pathname)}` });
      return Promise.resolve(null);
    }
    pending.current?.(null);
    return new Promise((resolve) => {
      pending.current = resolve;
      setOpen(true);
    });
  }, [privateKey, passwordless, navigate]);

  const unlockDialog = <PrivateKeyUnlockDialog open={open} onContinue={finish} onCancel={() => finish(null)} />;
  return { requestPrivateKey, unlockDialog };
}
