// What other parts of the app use from the passkeys feature: the login page's button, the
// profile's section and the unlock of /sso (docs/api.md "Passkeys").
export { PasskeySection } from './PasskeySection.tsx';
export { PasskeySignInButton } from './PasskeySignInButton.tsx';
export { passkeysSupported } from './webauthn.ts';
/** /sso: a passkey unlocks an account without a password (docs/api.md "Single sign-on"). */
export { unlockWithPasskey, type PasskeyUnlockOutcome } from './passkeyFlows.ts';
