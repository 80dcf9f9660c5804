// Session lifecycle events any slice may react to. `sessionEnded` means: the signed-in session is
// over (logout, expired, or none found at start), so forget everything held for it. The auth slice
// drops the user; the keys feature must drop the cached decrypted private key on the same action.

import { createAction } from '@reduxjs/toolkit';

export type SessionEndReason = 'logout' | 'expired' | 'absent';

export const sessionEnded = createAction<{ reason: SessionEndReason }>('session/ended');
