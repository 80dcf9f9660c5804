import { describe, expect, it } from 'vitest';
import { emptyFolderForm, type FolderFormValues } from './folderForm.ts';
import { buildFolderPayload } from './folderPayload.ts';

const form = (changes: Partial<FolderFormValues> = {}): FolderFormValues => ({ ...emptyFolderForm(), title: ' Audit ', ...changes });

// Spec section 3 "Folder create/update payload" and section 5 "Folder form", one case per rule.
describe('buildFolderPayload', () => {
  it('a new folder with the defaults: 30 days, no password, MIME check on, no e-mail list', () => {
    expect(buildFolderPayload(form(), 'create')).toEqual({
      title: 'Audit',
      description: '',
      require_email_verification: false,
      allowed_emails: null,
      perform_mime_check: true,
      expires_in_days: 30,
    });
  });

  it('days > 0: expires_in_days is sent and expiration_date dropped', () => {
    const payload = buildFolderPayload(form({ expirationMode: 'days', expiresInDays: '7', expirationDate: '2030-01-01T00:00' }), 'create');
    expect(payload.expires_in_days).toBe(7);
    expect('expiration_date' in payload).toBe(false);
  });

  it('date mode: days dropped, expiration_date sent as ISO (from local time)', () => {
    const payload = buildFolderPayload(form({ expirationMode: 'date', expirationDate: '2030-01-02T03:04:05' }), 'create');
    expect(payload.expiration_date).toBe(new Date(2030, 0, 2, 3, 4, 5).toISOString());
    expect('expires_in_days' in payload).toBe(false);
  });

  it("an untouched date of an edited folder is sent back as the exact stored instant (the field has whole seconds)", () => {
    const storedExpiration = { input: '2030-01-02T03:04:05', iso: '2030-01-02T03:04:05.678Z' };
    expect(buildFolderPayload(form({ expirationMode: 'date', expirationDate: '2030-01-02T03:04:05', storedExpiration }), 'update').expiration_date).toBe(
      '2030-01-02T03:04:05.678Z',
    );
    const changed = buildFolderPayload(form({ expirationMode: 'date', expirationDate: '2030-01-02T03:04:06', storedExpiration }), 'update');
    expect(changed.expiration_date).toBe(new Date(2030, 0, 2, 3, 4, 6).toISOString());
  });

  it('none mode: expiration_date null (no expiry; on update it clears the expiry)', () => {
    const payload = buildFolderPayload(form({ expirationMode: 'none', expiresInDays: '' }), 'update');
    expect(payload.expiration_date).toBeNull();
    expect('expires_in_days' in payload).toBe(false);
  });

  it('on update, invalid days are ignored and no expiry change is sent', () => {
    for (const days of ['0', '-2', '', 'x', '1.5']) {
      const payload = buildFolderPayload(form({ expirationMode: 'days', expiresInDays: days }), 'update');
      expect('expires_in_days' in payload, days).toBe(false);
      expect('expiration_date' in payload, days).toBe(false);
    }
  });

  it('an empty allowed_emails list is sent as null', () => {
    expect(buildFolderPayload(form({ requireEmailVerification: true, allowedEmails: ' , ' }), 'create').allowed_emails).toBeNull();
  });

  it('allowed e-mails: comma-separated, trimmed, empties dropped (only with e-mail verification)', () => {
    expect(buildFolderPayload(form({ requireEmailVerification: true, allowedEmails: 'a@x.org, ,b@x.org ' }), 'create').allowed_emails).toEqual([
      'a@x.org',
      'b@x.org',
    ]);
    expect(buildFolderPayload(form({ requireEmailVerification: false, allowedEmails: 'a@x.org' }), 'create').allowed_emails).toBeNull();
  });

  it('link_password is sent only when the password option is on', () => {
    expect('link_password' in buildFolderPayload(form({ usePassword: false, password: 'secret' }), 'update')).toBe(false);
    expect(buildFolderPayload(form({ usePassword: true, password: 'secret', confirmPassword: 'secret' }), 'update').link_password).toBe('secret');
  });

  it('ticking the option and leaving the field blank sends an empty string (removes the password)', () => {
    expect(buildFolderPayload(form({ usePassword: true, password: '' }), 'update').link_password).toBe('');
  });

  it('is_active is sent on update only', () => {
    expect('is_active' in buildFolderPayload(form(), 'create')).toBe(false);
    expect(buildFolderPayload(form({ isActive: false }), 'update').is_active).toBe(false);
  });
});
