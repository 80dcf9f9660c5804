import { describe, expect, it } from 'vitest';
import { folderStatus } from './folderStatus.ts';

const NOW = Date.UTC(2030, 5, 1, 12, 0, 0);
const past = new Date(NOW - 1000).toISOString();
const future = new Date(NOW + 1000).toISOString();

// Spec section 4 "Folder display status", one case per rule.
describe('folderStatus', () => {
  it('Inactive when is_active is false', () => {
    expect(folderStatus({ is_active: false, expiration_date: null }, NOW)).toBe('Inactive');
    expect(folderStatus({ is_active: false, expiration_date: future }, NOW)).toBe('Inactive');
  });
  it('Expired when the expiration date is in the past', () => {
    expect(folderStatus({ is_active: true, expiration_date: past }, NOW)).toBe('Expired');
  });
  it('Active with a future expiration date or none', () => {
    expect(folderStatus({ is_active: true, expiration_date: future }, NOW)).toBe('Active');
    expect(folderStatus({ is_active: true, expiration_date: null }, NOW)).toBe('Active');
  });
  it('an unparsable date counts as Active', () => {
    expect(folderStatus({ is_active: true, expiration_date: 'not a date' }, NOW)).toBe('Active');
  });
  it('Inactive wins over Expired', () => {
    expect(folderStatus({ is_active: false, expiration_date: past }, NOW)).toBe('Inactive');
  });
});
