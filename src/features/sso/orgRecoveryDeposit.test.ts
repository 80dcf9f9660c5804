// @vitest-environment jsdom
// The member's side of the organisation recovery policy (docs/api.md "Organisation recovery"):
// after an unlock on /sso the browser stores its copy for the organisation only while the policy
// is on and the server does not hold one for this key pair and organisation key; the copy is made
// from the very key source that unlocked, for the account's own id and public key; a failure
// never fails the unlock.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SsoKeySource } from '../../../workers/index.ts';
import { makeStore } from '../../app/store.ts';
import { installFakeApi } from '../../app/testing/fakeApi.ts';
import { testUser } from '../../app/testing/renderWithProviders.tsx';
import { depositForOrganisation, type SsoPool } from './ssoFlows.ts';

let restore = () => {};
afterEach(() => restore());

const KEY_ID = '5f0c1e9a-7b3d-4c2e-9a61-0d8f4b2c7e13';
const user = { ...testUser, id: 42, has_password: false, public_key_spki: 'bWVtYmVyIGtleQ==' };
const source: SsoKeySource = { kind: 'recovery', copy: 'Y29weQ==', recoveryKey: 'typed', username: user.username, expectedSpki: user.public_key_spki };

function poolDouble(copy = 'c2VhbGVk') {
  const wrap = vi.fn(async () => copy);
  return { wrap, pool: () => ({ wrapPrivateKeyForOrgRecovery: wrap }) as unknown as SsoPool };
}

describe('the copy for the organisation after an unlock', () => {
  it('is made and stored while the policy is on and the server holds none', async () => {
    const fake = installFakeApi({
      'GET /api/auth/org-recovery-copy': () => ({ status: 200, body: { key: { id: KEY_ID, public_key_spki: 'b3JnIGtleQ==' }, stored: false } }),
      'PUT /api/auth/org-recovery-copy': () => ({ status: 204 }),
    });
    restore = fake.restore;
    const { wrap, pool } = poolDouble();
    await depositForOrganisation({ dispatch: makeStore().dispatch, pool }, user, source);
    expect(wrap).toHaveBeenCalledWith(source, 'b3JnIGtleQ==', 42);
    const put = fake.requests.find((request) => request.method === 'PUT');
    expect(JSON.parse(put!.body)).toEqual({ key_id: KEY_ID, wrapped_for_spki: user.public_key_spki, copy: 'c2VhbGVk' });
  });

  it('is not made while the policy is off, nor again when the server holds it', async () => {
    for (const body of [{ key: null, stored: false }, { key: { id: KEY_ID, public_key_spki: 'b3JnIGtleQ==' }, stored: true }]) {
      const fake = installFakeApi({ 'GET /api/auth/org-recovery-copy': () => ({ status: 200, body }) });
      restore = fake.restore;
      const { wrap, pool } = poolDouble();
      await depositForOrganisation({ dispatch: makeStore().dispatch, pool }, user, source);
      expect(wrap).not.toHaveBeenCalled();
      expect(fake.requests.map((request) => request.method)).toEqual(['GET']);
      restore();
    }
  });

  it('leaves the unlock standing when storing fails (the next unlock tries again)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fake = installFakeApi({
      'GET /api/auth/org-recovery-copy': () => ({ status: 200, body: { key: { id: KEY_ID, public_key_spki: 'b3JnIGtleQ==' }, stored: false } }),
      'PUT /api/auth/org-recovery-copy': () => ({ status: 409, body: { detail: 'The organisation recovery policy is off.', code: 'ORG_RECOVERY_OFF' } }),
    });
    restore = fake.restore;
    await expect(depositForOrganisation({ dispatch: makeStore().dispatch, pool: poolDouble().pool }, user, source)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
