// What other features use from the profile: the two-factor section (the first-setup page of an
// invited account shows it as its first step).
export { TwoFactorSection } from './TwoFactorSection.tsx';
