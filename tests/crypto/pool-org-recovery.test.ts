/**
 * The pool's calls of the organisation recovery policy, with in-process workers: an admin makes
 * the organisation key (its private half leaves only sealed to the admin); a member's browser
 * seals its key to it from a device copy; the admin, with their unlocked key, answers the
 * member's new device's request, which then opens the member's own key; a second admin receives a
 * copy and can do the same. Another member id, another admin or another organisation key is
 * refused across the worker boundary.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateRsaKeyPair, wrapPrivateKey } from '../../server/crypto/index.ts';
import type { CryptoPool, PrivateKeyHandle } from '../../workers/index.ts';
import { expectCryptoError } from './helpers.ts';
import { inProcessPools, opensFileKeysOf } from './pool-fixtures.ts';

const newPool = inProcessPools();

/** An admin with a password account, their key unlocked in `pool`. */
async function unlockedAdmin(pool: CryptoPool): Promise<{ handle: PrivateKeyHandle; spki: string }> {
  const pair = generateRsaKeyPair();
  const data = wrapPrivateKey(pair.privateKey, 'login password', 100_000);
  return { handle: await pool.unlockPrivateKey(data, 'login password'), spki: pair.publicKeySpki };
}

describe('CryptoPool organisation recovery calls', () => {
  it("restores a member's key to their new device through an admin, and lets the admin pass the key on", async () => {
    const adminPool = newPool();
    const memberPool = newPool();
    const newDevicePool = newPool();
    const admin = await unlockedAdmin(adminPool);
    const ADMIN_ID = 1;
    const MEMBER_ID = 7;
    const org = await adminPool.createOrgRecoveryKey(admin.spki, ADMIN_ID);

    // The member's browser: a key pair and its device copy, then the copy for the organisation.
    const deviceKey = await memberPool.generateDeviceKey();
    const deviceId = randomUUID();
    const member = await memberPool.createSsoKeyPair('member', deviceKey, deviceId);
    const source = { kind: 'device', copy: member.deviceCopy, deviceKey, deviceId, expectedSpki: member.publicKeySpki } as const;
    const memberCopy = await memberPool.wrapPrivateKeyForOrgRecovery(source, org.publicKeySpki, MEMBER_ID);

    // A new browser of the member asks; the admin answers with the member's key.
    const request = await newDevicePool.createApprovalRequest();
    expect(await adminPool.approvalPhrase(request.publicKeySpki)).toBe(request.phrase);
    const requestId = randomUUID();
    const orgCopy = { adminCopy: org.adminCopy, adminUserId: ADMIN_ID, orgSpki: org.publicKeySpki };
    const restore = { memberCopy, memberUserId: MEMBER_ID, memberSpki: member.publicKeySpki, requestId, requesterSpki: request.publicKeySpki };
    const approval = await adminPool.restoreMemberAccess(admin.handle, orgCopy, restore);
    const unlocked = await newDevicePool.unlockPrivateKeyWithApproval(request.requestKey, requestId, approval.approverPublicKeySpki, approval.copy, member.publicKeySpki);
    expect(await opensFileKeysOf(newDevicePool, unlocked, member.publicKeySpki)).toBe(true);

    // Refused: another member id, another member's key named, another organisation key, another admin id.
    await expectCryptoError(adminPool.restoreMemberAccess(admin.handle, orgCopy, { ...restore, memberUserId: MEMBER_ID + 1 }), 'WRONG_KEY');
    await expectCryptoError(adminPool.restoreMemberAccess(admin.handle, orgCopy, { ...restore, memberSpki: generateRsaKeyPair().publicKeySpki }), 'WRONG_KEY');
    const otherOrg = await adminPool.createOrgRecoveryKey(admin.spki, ADMIN_ID);
    await expectCryptoError(adminPool.restoreMemberAccess(admin.handle, { ...orgCopy, orgSpki: otherOrg.publicKeySpki }, restore), 'WRONG_KEY');
    await expectCryptoError(adminPool.restoreMemberAccess(admin.handle, { ...orgCopy, adminUserId: 2 }, restore), 'WRONG_KEY');

    // A second admin gets a copy and restores as well; the first admin's copy does not open for them.
    const secondPool = newPool();
    const second = await unlockedAdmin(secondPool);
    const secondCopy = await adminPool.sealOrgKeyForAdmin(admin.handle, orgCopy, { userId: 2, spki: second.spki });
    await expectCryptoError(secondPool.restoreMemberAccess(second.handle, { ...orgCopy, adminUserId: 2 }, restore), 'WRONG_KEY');
    const again = await secondPool.restoreMemberAccess(second.handle, { adminCopy: secondCopy, adminUserId: 2, orgSpki: org.publicKeySpki }, { ...restore, requestId: randomUUID() });
    expect(again.copy).not.toBe(approval.copy);
  });
});
