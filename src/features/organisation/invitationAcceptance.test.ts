// @vitest-environment jsdom
// The invitee's registration body: a fresh block bound to the chosen name at the default cost, the
// secret derived under it (as the server's reference derivation computes it), never the password.
import { afterAll, describe, expect, it } from 'vitest';
import { ARGON2_DEFAULT_COST, deriveAccountSecrets, parseAccountKdfParams } from '../../../crypto/index.ts';
import { inProcessCryptoPool } from '../../app/testing/testCryptoPool.ts';
import { acceptanceBody, isInvitationRefusal } from './invitationAcceptance.ts';

const pool = inProcessCryptoPool();
afterAll(() => pool.terminate());

describe('acceptanceBody', () => {
  it('binds a fresh default-cost block to the chosen name and sends only the secret derived under it', async () => {
    const token = 'T'.repeat(43);
    const body = await acceptanceBody(pool, token, 'Ivy.Invitee', 'a chosen password');
    expect(body.token).toBe(token);
    expect(body.username).toBe('Ivy.Invitee');
    expect(parseAccountKdfParams(body.kdf_params)).toMatchObject({ ...ARGON2_DEFAULT_COST, scheme: 3, name: 'ivy.invitee' });
    const { authSecret } = await deriveAccountSecrets('a chosen password', body.kdf_params, 'Ivy.Invitee');
    expect(body.auth_secret).toBe(authSecret);
    expect(JSON.stringify(body)).not.toContain('a chosen password');
    const again = await acceptanceBody(pool, token, 'Ivy.Invitee', 'a chosen password');
    expect(again.kdf_params).not.toBe(body.kdf_params);
  }, 60_000);

  it('tells the invitation refusals (no retry helps) from other failures', () => {
    for (const code of ['INVITATION_NOT_FOUND', 'INVITATION_EXPIRED', 'INVITATION_USED', 'INVITATION_REVOKED']) expect(isInvitationRefusal(code)).toBe(true);
    for (const code of [null, 'INTERNAL', 'RATE_LIMITED', 'USERNAME_TAKEN']) expect(isInvitationRefusal(code)).toBe(false);
  });
});
