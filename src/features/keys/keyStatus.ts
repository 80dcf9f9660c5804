// Key storage status of the profile (spec section 4): checking, then stored, not stored, or
// unknown when the check fails. The check is GET /auth/users/me/encrypted-key: 404
// ENCRYPTED_KEY_NOT_FOUND means nothing is stored. The spec does not report errors whose text
// contains 'Unauthorized' or 'expired': those are exactly the 401 answers of describeApiError
// ('Unauthorized or session possibly expired.', 'Session expired. Please login again.'), so the
// rule is applied by their codes. The route guard deals with the session; the status is then unknown.

import { answeredWith, type ApiErrorInfo } from '../../api/errors.ts';

export type KeyStorageStatus = 'checking' | 'stored' | 'not-stored' | 'unknown';

export interface KeyStatusInput {
  isLoading: boolean;
  hasData: boolean;
  /** The described error of the last check, if it failed. */
  error: ApiErrorInfo | null;
}

function nothingStored(error: ApiErrorInfo): boolean {
  return answeredWith(error, 'ENCRYPTED_KEY_NOT_FOUND', 404);
}

export function keyStorageStatus({ isLoading, hasData, error }: KeyStatusInput): KeyStorageStatus {
  if (isLoading) return 'checking';
  if (error) return nothingStored(error) ? 'not-stored' : 'unknown';
  return hasData ? 'stored' : 'unknown';
}

/** Whether a failed status check is worth a notification. */
export function shouldReportStatusError(error: ApiErrorInfo): boolean {
  if (nothingStored(error)) return false;
  return error.code !== 'unauthorized' && error.code !== 'session-expired';
}

/** Spec section 2: a public key without a stored encrypted private key deserves a warning. */
export function hasOrphanedPublicKey(publicKeySpki: string | null | undefined, status: KeyStorageStatus): boolean {
  return Boolean(publicKeySpki) && status === 'not-stored';
}
