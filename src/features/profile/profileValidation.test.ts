import { describe, expect, it } from 'vitest';
import { planProfileUpdate } from './profileValidation.ts';

const user = { username: 'alice', email: 'alice@example.com' };
const form = (values: Partial<{ username: string; email: string; currentPassword: string }>) => ({
  username: 'alice',
  email: 'alice@example.com',
  currentPassword: 'pw',
  ...values,
});

describe('profile update rules (spec section 5, Profile)', () => {
  it('username is required and at least 3 characters', () => {
    expect(planProfileUpdate(user, form({ username: '  ' }))).toMatchObject({ ok: false, field: 'username', message: 'Username is required.' });
    expect(planProfileUpdate(user, form({ username: 'al' }))).toMatchObject({
      ok: false,
      field: 'username',
      message: 'Username must be at least 3 characters long.',
    });
  });

  it('sends only the changed fields', () => {
    expect(planProfileUpdate(user, form({ username: 'alice2' }))).toEqual({
      ok: true,
      request: { currentPassword: 'pw', changes: { username: 'alice2' } },
    });
    expect(planProfileUpdate(user, form({ email: 'new@example.com' }))).toEqual({
      ok: true,
      request: { currentPassword: 'pw', changes: { email: 'new@example.com' } },
    });
  });

  it('a blank e-mail is sent as null, which removes it', () => {
    expect(planProfileUpdate(user, form({ email: '   ' }))).toEqual({ ok: true, request: { currentPassword: 'pw', changes: { email: null } } });
  });

  it("nothing changed: 'No profile changes detected.' and no request", () => {
    expect(planProfileUpdate(user, form({ username: ' alice ' }))).toEqual({
      ok: false,
      field: null,
      severity: 'info',
      message: 'No profile changes detected.',
    });
    expect(planProfileUpdate({ username: 'bob', email: null }, { username: 'bob', email: '', currentPassword: '' })).toMatchObject({
      message: 'No profile changes detected.',
    });
  });

  it('the current password is required to save changes', () => {
    expect(planProfileUpdate(user, form({ username: 'alice2', currentPassword: '' }))).toMatchObject({
      ok: false,
      field: 'currentPassword',
      message: 'Current password is required to save profile changes.',
    });
  });

  it('a malformed e-mail is refused before sending', () => {
    expect(planProfileUpdate(user, form({ email: 'not-an-email' }))).toMatchObject({ ok: false, field: 'email' });
  });
});
