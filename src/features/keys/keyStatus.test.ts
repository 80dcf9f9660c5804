import { describe, expect, it } from 'vitest';
import { describeApiError } from '../../api/errors.ts';
import { hasOrphanedPublicKey, keyStorageStatus, shouldReportStatusError } from './keyStatus.ts';

const notFound = describeApiError({ status: 404, data: { detail: 'Encrypted key data not found' } });
const expired = describeApiError({ status: 401, data: { detail: 'Session expired', code: 'SESSION_EXPIRED' } });
const unauthorized = describeApiError({ status: 401, data: null });
const notAuthenticated = describeApiError({ status: 401, data: { detail: 'Not authenticated' } });
const serverError = describeApiError({ status: 500, data: { detail: 'Internal Server Error' } });
const network = describeApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' });

describe('key storage status (spec section 4)', () => {
  it('checking, then stored, not stored (404), or unknown (any other failure)', () => {
    expect(keyStorageStatus({ isLoading: true, hasData: false, error: null })).toBe('checking');
    expect(keyStorageStatus({ isLoading: false, hasData: true, error: null })).toBe('stored');
    expect(keyStorageStatus({ isLoading: false, hasData: false, error: notFound })).toBe('not-stored');
    for (const error of [expired, unauthorized, serverError, network]) {
      expect(keyStorageStatus({ isLoading: false, hasData: false, error })).toBe('unknown');
    }
  });

  it("errors containing 'Unauthorized' or 'expired' are not reported; others are", () => {
    expect(unauthorized.message).toContain('Unauthorized');
    expect(expired.message).toContain('expired');
    expect(shouldReportStatusError(unauthorized)).toBe(false);
    expect(shouldReportStatusError(expired)).toBe(false);
    expect(shouldReportStatusError(notAuthenticated)).toBe(false);
    expect(shouldReportStatusError(notFound)).toBe(false);
    expect(shouldReportStatusError(serverError)).toBe(true);
    expect(shouldReportStatusError(network)).toBe(true);
  });

  it('warns when a public key exists but no encrypted private key is stored', () => {
    expect(hasOrphanedPublicKey('MIIB...', 'not-stored')).toBe(true);
    expect(hasOrphanedPublicKey('MIIB...', 'stored')).toBe(false);
    expect(hasOrphanedPublicKey('MIIB...', 'unknown')).toBe(false);
    expect(hasOrphanedPublicKey(null, 'not-stored')).toBe(false);
  });
});
