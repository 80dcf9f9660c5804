import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
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
    pending.current?.(null);
    return new Promise((resolve) => {
      pending.current = resolve;
      setOpen(true);
    });
  }, [privateKey]);

  const unlockDialog = <PrivateKeyUnlockDialog open={open} onContinue={finish} onCancel={() => finish(null)} />;
  return { requestPrivateKey, unlockDialog };
}
