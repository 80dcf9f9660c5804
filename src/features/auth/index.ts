// What the app shell and other features use from the auth feature: its slice (always in the root
// reducer), who is signed in, the session's end, the six-digit code input rule shared with the
// 2FA setup panel.
export { authSlice, selectAuthStatus, selectCurrentUser, sessionConfirmed } from './authSlice.ts';
export { logout } from './authThunks.ts';
export { sanitizeCodeInput, SIX_DIGITS } from './loginResponse.ts';
export { hasSeenBoundBlock, rememberBoundBlock } from './newSignInMemory.ts';
