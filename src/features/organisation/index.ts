// The organisation feature's screens: the members page (organisation admins), the invitation page
// (an invitee, no account yet) and the first-setup page of a new account. Routes load them.
export { MembersPage } from './MembersPage.tsx';
export { InvitationPage } from './InvitationPage.tsx';
export { AccountSetupPage } from './AccountSetupPage.tsx';
// The fingerprint of a public key computed in this browser, for any screen that shows one to compare.
export { useKeyFingerprint, type FingerprintState } from './keyFingerprint.ts';
