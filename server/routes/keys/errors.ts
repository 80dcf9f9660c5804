// 404s of the key routes: the signed-in user has not stored that part of a key pair yet. The client
// maps the encrypted-key one to 'Encrypted key data not found on server. Please generate or
// restore keys in your profile.' (spec section 8). The error handler answers {detail, code}.
import { HttpError } from '../../errors.ts';

export type KeyNotFoundCode = 'PUBLIC_KEY_NOT_FOUND' | 'ENCRYPTED_KEY_NOT_FOUND';

const DETAILS: Record<KeyNotFoundCode, string> = {
  PUBLIC_KEY_NOT_FOUND: 'Public key not found',
  ENCRYPTED_KEY_NOT_FOUND: 'Encrypted key data not found',
};

export class KeyNotFoundError extends HttpError<KeyNotFoundCode> {
  constructor(code: KeyNotFoundCode) {
    super(code, 404, DETAILS[code]);
  }
}
