// Errors of the passkey routes (docs/api.md "Error codes"). Each refusal of a ceremony has a code
// of its own, so a client (and a test) tells a replay from a foreign origin without reading text.
import { httpErrorTable } from '../../errors.ts';
import { defineMessages } from '../../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  PASSKEYS_UNAVAILABLE: {
    id: 'server.passkeys.passkeysUnavailable',
    defaultMessage: 'Passkeys need the server setting PUBLIC_URL with a host name (or a localhost address). Ask the operator to set it.',
  },
  PASSKEY_REAUTH_REQUIRED: { id: 'server.passkeys.passkeyReauthRequired', defaultMessage: 'Confirm with your password or a passkey first.' },
  PASSKEY_LIMIT_REACHED: { id: 'server.passkeys.passkeyLimitReached', defaultMessage: 'This account already has 10 passkeys. Remove one first.' },
  PASSKEY_NOT_FOUND: { id: 'server.passkeys.passkeyNotFound', defaultMessage: 'Passkey not found' },
  PASSKEY_ALREADY_REGISTERED: { id: 'server.passkeys.passkeyAlreadyRegistered', defaultMessage: 'This passkey is already registered.' },
  PASSKEY_CHALLENGE_INVALID: { id: 'server.passkeys.passkeyChallengeInvalid', defaultMessage: 'The passkey request expired or was not issued here. Try again.' },
  PASSKEY_CHALLENGE_USED: { id: 'server.passkeys.passkeyChallengeUsed', defaultMessage: 'This passkey answer was already used. Try again.' },
  PASSKEY_ORIGIN_MISMATCH: { id: 'server.passkeys.passkeyOriginMismatch', defaultMessage: 'The passkey answered for another site.' },
  PASSKEY_USER_MISMATCH: { id: 'server.passkeys.passkeyUserMismatch', defaultMessage: 'This passkey belongs to another account.' },
  PASSKEY_COUNTER_REGRESSED: { id: 'server.passkeys.passkeyCounterRegressed', defaultMessage: 'This passkey reported an older use than one already seen; it may have been copied.' },
  PASSKEY_VERIFICATION_FAILED: { id: 'server.passkeys.passkeyVerificationFailed', defaultMessage: 'The passkey could not be verified.' },
  PASSKEY_SIGN_IN_THROUGH_SSO: {
    id: 'server.passkeys.passkeySignInThroughSso',
    defaultMessage: 'This account signs in through your organisation. Sign in there; your passkey then unlocks your keys.',
  },
});

export const PASSKEY_ERRORS = {
  PASSKEYS_UNAVAILABLE: { status: 409, detail: details.PASSKEYS_UNAVAILABLE },
  PASSKEY_REAUTH_REQUIRED: { status: 403, detail: details.PASSKEY_REAUTH_REQUIRED },
  PASSKEY_LIMIT_REACHED: { status: 409, detail: details.PASSKEY_LIMIT_REACHED },
  PASSKEY_NOT_FOUND: { status: 404, detail: details.PASSKEY_NOT_FOUND },
  PASSKEY_ALREADY_REGISTERED: { status: 409, detail: details.PASSKEY_ALREADY_REGISTERED },
  PASSKEY_CHALLENGE_INVALID: { status: 401, detail: details.PASSKEY_CHALLENGE_INVALID },
  PASSKEY_CHALLENGE_USED: { status: 401, detail: details.PASSKEY_CHALLENGE_USED },
  PASSKEY_ORIGIN_MISMATCH: { status: 401, detail: details.PASSKEY_ORIGIN_MISMATCH },
  PASSKEY_USER_MISMATCH: { status: 401, detail: details.PASSKEY_USER_MISMATCH },
  PASSKEY_COUNTER_REGRESSED: { status: 401, detail: details.PASSKEY_COUNTER_REGRESSED },
  PASSKEY_VERIFICATION_FAILED: { status: 401, detail: details.PASSKEY_VERIFICATION_FAILED },
  PASSKEY_SIGN_IN_THROUGH_SSO: { status: 403, detail: details.PASSKEY_SIGN_IN_THROUGH_SSO },
} as const;

export type PasskeyErrorCode = keyof typeof PASSKEY_ERRORS;

export class PasskeyError extends httpErrorTable(PASSKEY_ERRORS) {}
