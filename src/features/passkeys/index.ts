// What other parts of the app use from the passkeys feature: the login page's button and the
// profile's section (docs/api.md "Passkeys").
export { PasskeySection } from './PasskeySection.tsx';
export { PasskeySignInButton } from './PasskeySignInButton.tsx';
export { passkeysSupported } from './webauthn.ts';
