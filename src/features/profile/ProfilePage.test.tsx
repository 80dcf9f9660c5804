// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { installFakeApi, type FakeHandler, type RecordedRequest } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState, testUser } from '../../app/testing/renderWithProviders.tsx';
import { inProcessCryptoPool } from '../../app/testing/testCryptoPool.ts';
import { parseAccountKdfParams } from '../../../crypto/index.ts';
import { authSecretOf, preloginHandler } from '../auth/testing/prelogin.ts';

const pool = inProcessCryptoPool();
afterAll(() => pool.terminate());

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

// The encryption key section checks the key status on every visit (and a password change looks for
// key data to re-wrap); these tests are about the other sections, so that call answers "none
// stored" and is left out of the recorded requests. The key section has its own tests.
// The webhook section (WebhookSection.test.tsx) likewise reads its endpoint: "none set". Every
// re-entered password starts with the pre-login (the account's KDF parameters), also left out.
const KEY_DATA_PATH = '/api/auth/users/me/encrypted-key';
const WEBHOOK_PATH = '/api/auth/webhook';
const PRELOGIN_PATH = '/api/auth/prelogin';
// The new password's secret is derived at the default cost (64 MiB argon2id, in this process).
const DERIVING = { timeout: 30_000 };

function withApi(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi({
    [`GET ${KEY_DATA_PATH}`]: () => ({ status: 404, body: { detail: 'Encrypted key data not found' } }),
    [`GET ${WEBHOOK_PATH}`]: () => ({ status: 200, body: { endpoint: null, deliveries: [] } }),
    [`POST ${PRELOGIN_PATH}`]: preloginHandler(),
    ...handlers,
  });
  restore = api.restore;
  return {
    get requests() {
      return api.requests.filter((request) => ![KEY_DATA_PATH, WEBHOOK_PATH, PRELOGIN_PATH].includes(request.path));
    },
    /** Every request whose body holds `text` (a password must be in none). */
    carrying(text: string): RecordedRequest[] {
      return api.requests.filter((request) => request.body.includes(text));
    },
  };
}

async function openSection(name: string, user = testUser) {
  renderAppAt('/profile', { preloadedState: signedInState(user), cryptoPool: () => pool });
  await screen.findByRole('heading', { name: 'My Profile & Settings' });
  return within(screen.getByRole('region', { name }));
}

function type(section: ReturnType<typeof within>, label: string, value: string) {
  fireEvent.change(section.getByLabelText(label), { target: { value } });
}

describe('Profile page', () => {
  it('links back to the dashboard and has the five sections', async () => {
    await openSection('Profile Information');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    for (const name of ['Profile Information', 'Change Login Password', 'Two-Factor Authentication', 'End-to-End Encryption Key', 'Webhooks']) {
      expect(screen.getByRole('region', { name })).toBeVisible();
    }
  });
});

describe('Profile Information', () => {
  it('of an account made by single sign-on shows its name and address read-only, with no password to ask for', async () => {
    const api = withApi({
      'GET /api/auth/devices': () => ({ status: 200, body: { devices: [] } }),
      'GET /api/auth/device-approvals': () => ({ status: 200, body: { approvals: [] } }),
    });
    const section = await openSection('Profile Information', { ...testUser, has_password: false });
    expect(section.getByText(/Your organisation signs you in/)).toBeVisible();
    expect(section.getByLabelText('Username')).toHaveAttribute('readonly');
    expect(section.getByLabelText('Email')).toHaveValue('alice@example.com');
    expect(section.queryByLabelText('Current Password')).toBeNull();
    expect(section.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Change Login Password' })).toBeNull();
    expect(api.requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it("nothing changed: 'No profile changes detected.' and nothing is sent", async () => {
    const api = withApi({});
    const section = await openSection('Profile Information');
    type(section, 'Current Password', 'pw');
    fireEvent.click(section.getByRole('button', { name: 'Save Changes' }));
    expect(await section.findByText('No profile changes detected.')).toBeVisible();
    expect(api.requests).toHaveLength(0);
  });

  it('the current password is required', async () => {
    const api = withApi({});
    const section = await openSection('Profile Information');
    type(section, 'Email', 'other@example.com');
    fireEvent.click(section.getByRole('button', { name: 'Save Changes' }));
    expect(await section.findByText('Current password is required to save profile changes.')).toBeVisible();
    expect(api.requests).toHaveLength(0);
  });

  it('sends only changed fields; a blank e-mail is sent as null; the header user is updated', async () => {
    const api = withApi({ 'PUT /api/auth/users/me': () => ({ status: 200, body: { ...testUser, email: null } }) });
    const section = await openSection('Profile Information');
    type(section, 'Email', '');
    type(section, 'Current Password', 'correct-horse-1');
    fireEvent.click(section.getByRole('button', { name: 'Save Changes' }));
    expect(await section.findByText('Profile updated successfully.')).toBeVisible();
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ current_auth_secret: await authSecretOf('correct-horse-1'), email: null });
    expect(api.carrying('correct-horse-1')).toEqual([]);
    expect((section.getByLabelText('Current Password') as HTMLInputElement).value).toBe('');
  });

  it('a new username re-keys the login to a block bound to it in the same request', async () => {
    const api = withApi({ 'PUT /api/auth/users/me': (request) => ({ status: 200, body: { ...testUser, username: JSON.parse(request.body).username } }) });
    const section = await openSection('Profile Information');
    type(section, 'Username', 'alice.new');
    type(section, 'Current Password', 'correct-horse-1');
    fireEvent.click(section.getByRole('button', { name: 'Save Changes' }));
    expect(await section.findByText('Profile updated successfully.', {}, DERIVING)).toBeVisible();
    const sent = JSON.parse(api.requests[0]!.body);
    expect(Object.keys(sent).sort()).toEqual(['current_auth_secret', 'new_auth_secret', 'new_kdf_params', 'username']);
    expect(sent.current_auth_secret).toBe(await authSecretOf('correct-horse-1'));
    expect(parseAccountKdfParams(sent.new_kdf_params, 'alice.new')).toMatchObject({ scheme: 3, name: 'alice.new' });
    expect(sent.new_auth_secret).toBe(await authSecretOf('correct-horse-1', sent.new_kdf_params));
    expect(api.carrying('correct-horse-1')).toEqual([]);
  }, 120_000);

  it('a change of the username\'s letter case only keeps the block (no re-key sent)', async () => {
    const recase = withApi({ 'PUT /api/auth/users/me': () => ({ status: 200, body: { ...testUser, username: 'Alice' } }) });
    const again = await openSection('Profile Information');
    type(again, 'Username', 'Alice');
    type(again, 'Current Password', 'correct-horse-1');
    fireEvent.click(again.getByRole('button', { name: 'Save Changes' }));
    expect(await again.findByText('Profile updated successfully.')).toBeVisible();
    expect(Object.keys(JSON.parse(recase.requests[0]!.body)).sort()).toEqual(['current_auth_secret', 'username']);
  }, 60_000);

  it("a wrong current password reads 'Incorrect password provided.'", async () => {
    withApi({ 'PUT /api/auth/users/me': () => ({ status: 401, body: { detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' } }) });
    const section = await openSection('Profile Information');
    type(section, 'Username', 'alice2');
    type(section, 'Current Password', 'wrong');
    fireEvent.click(section.getByRole('button', { name: 'Save Changes' }));
    expect(await section.findByText('Incorrect password provided.')).toBeVisible();
  });

  it('a short username is refused before sending', async () => {
    const api = withApi({});
    const section = await openSection('Profile Information');
    type(section, 'Username', 'al');
    type(section, 'Current Password', 'pw');
    fireEvent.click(section.getByRole('button', { name: 'Save Changes' }));
    expect(await section.findByText('Username must be at least 3 characters long.')).toBeVisible();
    expect(api.requests).toHaveLength(0);
  });
});

describe('Change Login Password', () => {
  it('submit is disabled until all three are filled and match; a mismatch is named', async () => {
    withApi({});
    const section = await openSection('Change Login Password');
    const submit = section.getByRole('button', { name: 'Change Password' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    type(section, 'Old Password', 'old-pass-1');
    type(section, 'New Password', 'new-pass-1');
    type(section, 'Confirm New Password', 'new-pass-2');
    expect(submit.disabled).toBe(true);
    expect(section.getByText('New passwords do not match.')).toBeVisible();
    type(section, 'Confirm New Password', 'new-pass-1');
    expect(submit.disabled).toBe(false);
  });

  it('rules are checked before sending: length and different from old', async () => {
    const api = withApi({});
    const section = await openSection('Change Login Password');
    type(section, 'Old Password', 'old-pass-1');
    type(section, 'New Password', 'short');
    type(section, 'Confirm New Password', 'short');
    fireEvent.click(section.getByRole('button', { name: 'Change Password' }));
    expect(await section.findByText('New password must be at least 8 characters long.')).toBeVisible();
    type(section, 'New Password', 'old-pass-1');
    type(section, 'Confirm New Password', 'old-pass-1');
    fireEvent.click(section.getByRole('button', { name: 'Change Password' }));
    expect(await section.findByText('New password cannot be the same as the old password.')).toBeVisible();
    expect(api.requests).toHaveLength(0);
  });

  it('a valid change is sent and the fields are cleared', async () => {
    const api = withApi({ 'POST /api/auth/change-password': () => ({ status: 200, body: { detail: 'Password changed' } }) });
    const section = await openSection('Change Login Password');
    type(section, 'Old Password', 'old-pass-1');
    type(section, 'New Password', 'new-pass-1');
    type(section, 'Confirm New Password', 'new-pass-1');
    fireEvent.click(section.getByRole('button', { name: 'Change Password' }));
    expect(await section.findByText('Password changed successfully.', {}, DERIVING)).toBeVisible();
    const sent = JSON.parse(api.requests[0]!.body);
    expect(Object.keys(sent).sort()).toEqual(['new_auth_secret', 'new_kdf_params', 'old_auth_secret']);
    expect(sent.old_auth_secret).toBe(await authSecretOf('old-pass-1'));
    expect(sent.new_auth_secret).toBe(await authSecretOf('new-pass-1', sent.new_kdf_params));
    expect([...api.carrying('old-pass-1'), ...api.carrying('new-pass-1')]).toEqual([]);
    expect((section.getByLabelText('Old Password') as HTMLInputElement).value).toBe('');
  });
});

describe('Two-Factor Authentication', () => {
  const setup = { secret: 'JBSWY3DPEHPK3PXP', otp_uri: 'otpauth://totp/Sealdrop:alice?secret=JBSWY3DPEHPK3PXP&issuer=Sealdrop' };

  it('enable: setup shows the secret and a QR code; verify needs 6 digits; success shows Enabled', async () => {
    const api = withApi({
      'POST /api/auth/2fa/setup': () => ({ status: 200, body: setup }),
      'POST /api/auth/2fa/enable': () => ({ status: 200, body: { ...testUser, is_2fa_enabled: true } }),
    });
    const section = await openSection('Two-Factor Authentication');
    expect(section.getByText('Disabled')).toBeVisible();
    fireEvent.click(section.getByRole('button', { name: 'Enable 2FA' }));

    expect((await section.findByLabelText('Two-factor secret')).textContent).toBe(setup.secret);
    const qr = section.getByTitle('QR code for your authenticator app').closest('svg');
    expect(qr?.getAttribute('height')).toBe('160');
    const verify = section.getByRole('button', { name: 'Verify & Enable' }) as HTMLButtonElement;
    type(section, 'Authentication Code', '12345');
    expect(verify.disabled).toBe(true);
    type(section, 'Authentication Code', '123456');
    expect(verify.disabled).toBe(false);
    fireEvent.click(verify);

    expect(await section.findByText('Enabled')).toBeVisible();
    expect(JSON.parse(api.requests[1]!.body)).toEqual({ code: '123456' });
    expect(section.queryByLabelText('Two-factor secret')).toBeNull();
  });

  it("'Cancel Setup' returns to disabled", async () => {
    withApi({ 'POST /api/auth/2fa/setup': () => ({ status: 200, body: setup }) });
    const section = await openSection('Two-Factor Authentication');
    fireEvent.click(section.getByRole('button', { name: 'Enable 2FA' }));
    fireEvent.click(await section.findByRole('button', { name: 'Cancel Setup' }));
    expect(section.getByRole('button', { name: 'Enable 2FA' })).toBeVisible();
    expect(section.getByRole('button', { name: 'Enable 2FA' }), 'setup can start again').toBeEnabled();
    expect(section.queryByLabelText('Two-factor secret')).toBeNull();
  });

  it('a wrong code shows the server detail and stays in setup', async () => {
    withApi({
      'POST /api/auth/2fa/setup': () => ({ status: 200, body: setup }),
      'POST /api/auth/2fa/enable': () => ({ status: 401, body: { detail: 'Invalid authentication code' } }),
    });
    const section = await openSection('Two-Factor Authentication');
    fireEvent.click(section.getByRole('button', { name: 'Enable 2FA' }));
    await section.findByLabelText('Two-factor secret');
    type(section, 'Authentication Code', '000000');
    fireEvent.click(section.getByRole('button', { name: 'Verify & Enable' }));
    expect(await section.findByText('Invalid authentication code')).toBeVisible();
    expect(section.getByLabelText('Two-factor secret')).toBeVisible();
  });

  it('disable asks for the password and a confirmation', async () => {
    const api = withApi({ 'POST /api/auth/2fa/disable': () => ({ status: 200, body: testUser }) });
    const section = await openSection('Two-Factor Authentication', { ...testUser, is_2fa_enabled: true });
    fireEvent.click(section.getByRole('button', { name: 'Disable 2FA' }));
    type(section, 'Login Password', 'correct-horse-1');
    fireEvent.click(section.getByRole('button', { name: 'Disable' }));

    const dialog = await screen.findByRole('dialog', { name: 'Disable two-factor authentication?' });
    expect(api.requests).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable 2FA' }));

    await waitFor(() => expect(section.getByText('Disabled')).toBeVisible());
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ auth_secret: await authSecretOf('correct-horse-1') });
    expect(api.carrying('correct-horse-1')).toEqual([]);
  });
});
