export { SsoSignInButton, ssoRefusalText, usePasswordSignIn } from './SsoSignIn.tsx';
export { DevicesSection } from './DevicesSection.tsx';
export { unlockWithThisDevice } from './ssoFlows.ts';
