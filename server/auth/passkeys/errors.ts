// Errors of the passkey routes (docs/api.md "Error codes"). Each refusal of a ceremony has a code
// of its own, so a client (and a test) tells a replay from a foreign origin without reading text.
import { httpErrorTable } from '../../errors.ts';

export const PASSKEY_ERRORS = {
  PASSKEYS_UNAVAILABLE: {
    status: 409,
    detail: 'Passkeys need the server setting PUBLIC_URL with a host name (or a localhost address). Ask the operator to set it.',
  },
  PASSKEY_REAUTH_REQUIRED: { status: 403, detail: 'Confirm with your password or a passkey first.' },
  PASSKEY_LIMIT_REACHED: { status: 409, detail: 'This account already has 10 passkeys. Remove one first.' },
  PASSKEY_NOT_FOUND: { status: 404, detail: 'Passkey not found' },
  PASSKEY_ALREADY_REGISTERED: { status: 409, detail: 'This passkey is already registered.' },
  PASSKEY_CHALLENGE_INVALID: { status: 401, detail: 'The passkey request expired or was not issued here. Try again.' },
  PASSKEY_CHALLENGE_USED: { status: 401, detail: 'This passkey answer was already used. Try again.' },
  PASSKEY_ORIGIN_MISMATCH: { status: 401, detail: 'The passkey answered for another site.' },
  PASSKEY_USER_MISMATCH: { status: 401, detail: 'This passkey belongs to another account.' },
  PASSKEY_COUNTER_REGRESSED: { status: 401, detail: 'This passkey reported an older use than one already seen; it may have been copied.' },
  PASSKEY_VERIFICATION_FAILED: { status: 401, detail: 'The passkey could not be verified.' },
} as const;

export type PasskeyErrorCode = keyof typeof PASSKEY_ERRORS;

export class PasskeyError extends httpErrorTable(PASSKEY_ERRORS) {}
