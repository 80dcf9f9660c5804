// The sign-in screens' own texts (the login page's two steps, the route guard, the auth state).
import { defineMessages } from '../../i18n/defineMessages.ts';

export const AUTH_MESSAGES = defineMessages({
  loadingStatus: { id: 'signIn.guard.loading', defaultMessage: 'Loading authentication status...' },
  sessionExpired: { id: 'signIn.notice.sessionExpired', defaultMessage: 'Session expired. Please login again.' },
  pageTitle: { id: 'signIn.page.title', defaultMessage: 'Admin Login' },
  pageSubtitle: { id: 'signIn.page.subtitle', defaultMessage: 'Sign in to manage your folders and files.' },
  twoStepSubtitle: { id: 'signIn.page.twoStep', defaultMessage: 'Two-step verification' },
  credentialsRequired: { id: 'signIn.page.credentialsRequired', defaultMessage: 'Please enter your username and password.' },
  codeRequired: { id: 'signIn.page.codeRequired', defaultMessage: 'Please enter the 6-digit code from your authenticator app.' },
  passwordFormLabel: { id: 'signIn.password.formLabel', defaultMessage: 'Sign in' },
  username: { id: 'signIn.password.username', defaultMessage: 'Username' },
  password: { id: 'signIn.password.password', defaultMessage: 'Password' },
  checking: { id: 'signIn.password.checking', defaultMessage: 'Checking...' },
  signIn: { id: 'signIn.password.submit', defaultMessage: 'Sign In' },
  codeFormLabel: { id: 'signIn.code.formLabel', defaultMessage: 'Verify code' },
  codeIntro: {
    id: 'signIn.code.intro',
    defaultMessage: 'Signing in as <b>{username}</b>. Enter the 6-digit code your authenticator app shows.',
    description: 'b marks the username in bold',
  },
  codeLabel: { id: 'signIn.code.label', defaultMessage: 'Authentication Code' },
  verifying: { id: 'signIn.code.verifying', defaultMessage: 'Verifying...' },
  verifyCode: { id: 'signIn.code.submit', defaultMessage: 'Verify Code' },
  backToPassword: { id: 'signIn.code.backToPassword', defaultMessage: 'Enter password instead?' },
  oldSchemeLabel: { id: 'signIn.oldScheme.label', defaultMessage: 'Send your password?' },
  unexpectedResponse: { id: 'signIn.error.unexpectedResponse', defaultMessage: 'Login failed: Unexpected server response structure.' },
  invalidOtpResponse: { id: 'signIn.error.invalidOtpResponse', defaultMessage: 'Login failed: Invalid response after OTP submission.' },
});
