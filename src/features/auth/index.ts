// What other features use from the auth feature: who is signed in, the session's end, and the
// six-digit code input rule shared with the 2FA setup panel.
export { selectAuthStatus, selectCurrentUser, sessionConfirmed } from './authSlice.ts';
export { logout } from './authThunks.ts';
export { sanitizeCodeInput, SIX_DIGITS } from './loginResponse.ts';
