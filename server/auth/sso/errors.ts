// Errors of single sign-on, trusted devices and device approvals (docs/api.md "Single sign-on").
// A refused provider answer has a code of its own per cause, so the sign-in page (and a test) tells
// a forged state from a refused code without reading text.
import { httpErrorTable } from '../../errors.ts';
import { defineMessages } from '../../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  SSO_NOT_CONFIGURED: { id: 'server.sso.notConfigured', defaultMessage: 'Single sign-on is not set up on this server.' },
  SSO_PROVIDER_UNAVAILABLE: { id: 'server.sso.providerUnavailable', defaultMessage: 'The sign-in provider could not be reached. Try again in a moment.' },
  SSO_FLOW_INVALID: { id: 'server.sso.flowInvalid', defaultMessage: 'This sign-in was not started in this browser or took too long. Start it again.' },
  SSO_SIGN_IN_FAILED: { id: 'server.sso.signInFailed', defaultMessage: 'The sign-in provider did not confirm this sign-in. Start it again.' },
  SSO_NOT_ALLOWED: { id: 'server.sso.notAllowed', defaultMessage: 'Your organisation account may not use this server. Ask an administrator for an invitation.' },
  SSO_EMAIL_UNVERIFIED: { id: 'server.sso.emailUnverified', defaultMessage: 'The sign-in provider did not confirm your e-mail address.' },
  PASSWORD_SIGN_IN_OFF: { id: 'server.sso.passwordSignInOff', defaultMessage: 'This organisation signs in through its sign-in provider only.' },
  KEY_PAIR_EXISTS: { id: 'server.sso.keyPairExists', defaultMessage: 'This account already has a key pair; nothing was stored.' },
  DEVICE_NOT_FOUND: { id: 'server.sso.deviceNotFound', defaultMessage: 'This device is not trusted (any more) by this account.' },
  DEVICE_LIMIT_REACHED: { id: 'server.sso.deviceLimitReached', defaultMessage: 'This account already trusts 20 devices. Remove one first.' },
  APPROVAL_NOT_FOUND: { id: 'server.sso.approvalNotFound', defaultMessage: 'This approval request was answered, withdrawn or has expired.' },
  APPROVAL_LIMIT_REACHED: { id: 'server.sso.approvalLimitReached', defaultMessage: 'This account already has 5 open approval requests. Wait a few minutes.' },
  RECOVERY_COPY_NOT_FOUND: { id: 'server.sso.recoveryCopyNotFound', defaultMessage: 'This account has no recovery key for its current key pair.' },
});

export const SSO_ERRORS = {
  SSO_NOT_CONFIGURED: { status: 404, detail: details.SSO_NOT_CONFIGURED },
  SSO_PROVIDER_UNAVAILABLE: { status: 502, detail: details.SSO_PROVIDER_UNAVAILABLE },
  SSO_FLOW_INVALID: { status: 400, detail: details.SSO_FLOW_INVALID },
  SSO_SIGN_IN_FAILED: { status: 401, detail: details.SSO_SIGN_IN_FAILED },
  SSO_NOT_ALLOWED: { status: 403, detail: details.SSO_NOT_ALLOWED },
  SSO_EMAIL_UNVERIFIED: { status: 403, detail: details.SSO_EMAIL_UNVERIFIED },
  PASSWORD_SIGN_IN_OFF: { status: 403, detail: details.PASSWORD_SIGN_IN_OFF },
  KEY_PAIR_EXISTS: { status: 409, detail: details.KEY_PAIR_EXISTS },
  DEVICE_NOT_FOUND: { status: 404, detail: details.DEVICE_NOT_FOUND },
  DEVICE_LIMIT_REACHED: { status: 409, detail: details.DEVICE_LIMIT_REACHED },
  APPROVAL_NOT_FOUND: { status: 404, detail: details.APPROVAL_NOT_FOUND },
  APPROVAL_LIMIT_REACHED: { status: 409, detail: details.APPROVAL_LIMIT_REACHED },
  RECOVERY_COPY_NOT_FOUND: { status: 404, detail: details.RECOVERY_COPY_NOT_FOUND },
} as const;

export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** `options.cause`: what the provider or openid-client answered, for the log (never sent to the browser). */
export class SsoError extends httpErrorTable(SSO_ERRORS) {}
