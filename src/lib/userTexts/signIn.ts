// Texts of the sign-in and of re-entered passwords under zero-knowledge sign-in (issue 27): the
// one-time move of an account made before it, and what a session of such an account is told.
export const SIGN_IN_TEXTS = {
  /** Shown under the Sign In button while an account of the old scheme moves to the new one. */
  upgrading: 'Securing your account for the new sign-in...',
  /** The move failed; the server rolled it back, so the old password and key still work. */
  upgradeFailed: (detail: string) => `Sign-in could not finish securing your account (${detail}). Nothing was changed: please sign in again.`,
  /** A session of an account not yet moved (it signed in before the move) re-enters its password. */
  upgradeRequired: 'Please sign out and sign in again: your account moves to the new sign-in when you do.',
  /** The pre-login answer asked for weaker password protection than this app uses: nothing was derived or sent. */
  kdfRefused: 'The server asked for weaker password protection than this app allows, so your password was not used and nothing was sent. Please contact your administrator.',
} as const;
