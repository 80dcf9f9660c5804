// 404s of the key routes: the signed-in user has not stored that part of a key pair yet. The client
// maps the encrypted-key one to 'Encrypted key data not found on server. Please generate or
// restore keys in your profile.' (spec section 8). The error handler answers {detail, code}.
import { httpErrorTable } from '../../errors.ts';
import { defineMessages } from '../../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  PUBLIC_KEY_NOT_FOUND: { id: 'server.keys.publicKeyNotFound', defaultMessage: 'Public key not found' },
  ENCRYPTED_KEY_NOT_FOUND: { id: 'server.keys.encryptedKeyNotFound', defaultMessage: 'Encrypted key data not found' },
});

const KEY_ERRORS = {
  PUBLIC_KEY_NOT_FOUND: { status: 404, detail: details.PUBLIC_KEY_NOT_FOUND },
  ENCRYPTED_KEY_NOT_FOUND: { status: 404, detail: details.ENCRYPTED_KEY_NOT_FOUND },
} as const;

export type KeyNotFoundCode = keyof typeof KEY_ERRORS;

export class KeyNotFoundError extends httpErrorTable(KEY_ERRORS) {}
