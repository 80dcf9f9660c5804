import { describe, expect, it } from 'vitest';
import { displayTitle, formatDateTime, formatExpiry, uploadLink } from './folderDisplay.ts';

describe('dashboard display rules (spec section 2)', () => {
  it("an untitled folder shows '(No Title)'", () => {
    expect(displayTitle('')).toBe('(No Title)');
    expect(displayTitle('   ')).toBe('(No Title)');
    expect(displayTitle(null)).toBe('(No Title)');
    expect(displayTitle('Audit')).toBe('Audit');
  });
  it("a missing date shows '-'", () => {
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime(undefined)).toBe('-');
    expect(formatDateTime('garbage')).toBe('-');
  });
  it("no expiry shows 'Never'", () => {
    expect(formatExpiry(null)).toBe('Never');
  });
  it('dates show in the locale with seconds', () => {
    const iso = new Date(2030, 0, 15, 13, 4, 5).toISOString();
    expect(formatDateTime(iso, 'en-US')).toBe('1/15/2030, 1:04:05 PM');
    expect(formatDateTime(iso, 'de-DE')).toBe('15.1.2030, 13:04:05');
    expect(formatExpiry(iso, 'en-US')).toBe('1/15/2030, 1:04:05 PM');
  });
  it('the upload link is {origin}/upload/{link_token}', () => {
    expect(uploadLink('https://drop.example', 'abc_-1')).toBe('https://drop.example/upload/abc_-1');
  });
});
