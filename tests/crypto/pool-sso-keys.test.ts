/**
 * The pool's calls for accounts without a password, with in-process workers (Comlink over a
 * MessageChannel, as in the app): a new key pair comes back as a handle with its device copy and
 * recovery key; each copy unlocks into a handle that opens the account's file keys; a second
 * device is approved from the first (the same phrase on both, the request's key pair staying in the
 * requester's worker) and then trusted with a copy of its own; a new recovery key replaces the old;
 * and every binding or key pair that differs is refused across the worker boundary.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateRsaKeyPair, wrapPrivateKey } from '../../server/crypto/index.ts';
import { expectCryptoError } from './helpers.ts';
import { inProcessPools, opensFileKeysOf } from './pool-fixtures.ts';

const newPool = inProcessPools();

describe('CryptoPool single-sign-on key calls', () => {
  it('makes a key pair kept as a handle, with a device copy and a recovery key that each unlock it', async () => {
    const pool = newPool();
    const deviceKey = await pool.generateDeviceKey();
    expect(deviceKey.extractable).toBe(false);
    const deviceId = randomUUID();
    const created = await pool.createSsoKeyPair('Alice', deviceKey, deviceId);
    expect(Object.keys(created).sort()).toEqual(['deviceCopy', 'privateKey', 'publicKeySpki', 'recoveryCopy', 'recoveryKey']);
    expect(created.privateKey).toEqual({ id: created.privateKey.id, kind: 'private' });
    expect(created.recoveryKey).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){7}[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(await opensFileKeysOf(pool, created.privateKey, created.publicKeySpki)).toBe(true);

    const fromDevice = await pool.unlockPrivateKeyWithDevice(created.deviceCopy, deviceKey, deviceId, created.publicKeySpki);
    expect(await opensFileKeysOf(pool, fromDevice, created.publicKeySpki)).toBe(true);
    const typed = created.recoveryKey.toLowerCase().replace(/-/g, ' ');
    const fromRecovery = await pool.unlockPrivateKeyWithRecoveryKey(created.recoveryCopy, typed, 'alice', created.publicKeySpki);
    expect(await opensFileKeysOf(pool, fromRecovery, created.publicKeySpki)).toBe(true);

    // Another device id, another username, another account's public key, a mistyped recovery key.
    await expectCryptoError(pool.unlockPrivateKeyWithDevice(created.deviceCopy, deviceKey, randomUUID(), created.publicKeySpki), 'WRONG_KEY');
    await expectCryptoError(pool.unlockPrivateKeyWithDevice(created.deviceCopy, await pool.generateDeviceKey(), deviceId, created.publicKeySpki), 'WRONG_KEY');
    await expectCryptoError(pool.unlockPrivateKeyWithRecoveryKey(created.recoveryCopy, typed, 'bob', created.publicKeySpki), 'WRONG_KEY');
    await expectCryptoError(pool.unlockPrivateKeyWithDevice(created.deviceCopy, deviceKey, deviceId, generateRsaKeyPair().publicKeySpki), 'WRONG_KEY');
    await expectCryptoError(pool.unlockPrivateKeyWithRecoveryKey(created.recoveryCopy, typed.slice(1), 'alice', created.publicKeySpki), 'MALFORMED');
  });

  it('approves a second device from the first, which then gets a device copy of its own', async () => {
    const first = newPool();
    const second = newPool();
    const firstKey = await first.generateDeviceKey();
    const firstId = randomUUID();
    const account = await first.createSsoKeyPair('alice', firstKey, firstId);
    const expectedSpki = account.publicKeySpki;

    const request = await second.createApprovalRequest();
    expect(request.requestKey.kind).toBe('request');
    expect(second.keyLocations(request.requestKey)).toHaveLength(1);
    // The approver shows the phrase of the key the server handed it: the same words.
    expect(await first.approvalPhrase(request.publicKeySpki)).toBe(request.phrase);
    const requestId = randomUUID();
    const source = { kind: 'device', copy: account.deviceCopy, deviceKey: firstKey, deviceId: firstId, expectedSpki } as const;
    const approval = await first.approveDeviceRequest(source, requestId, request.publicKeySpki);

    const unlocked = await second.unlockPrivateKeyWithApproval(request.requestKey, requestId, approval.approverPublicKeySpki, approval.copy, expectedSpki);
    expect(second.keyLocations(unlocked)).toEqual(second.keyLocations(request.requestKey));
    expect(await opensFileKeysOf(second, unlocked, expectedSpki)).toBe(true);
    await expectCryptoError(second.unlockPrivateKeyWithApproval(request.requestKey, randomUUID(), approval.approverPublicKeySpki, approval.copy, expectedSpki), 'WRONG_KEY');
    const otherRequest = await second.createApprovalRequest();
    await expectCryptoError(second.unlockPrivateKeyWithApproval(otherRequest.requestKey, requestId, approval.approverPublicKeySpki, approval.copy, expectedSpki), 'WRONG_KEY');
    expect(otherRequest.phrase).not.toBe(request.phrase);

    const secondKey = await second.generateDeviceKey();
    const secondId = randomUUID();
    const approvalSource = { kind: 'approval', requestKey: request.requestKey, requestId, approverSpki: approval.approverPublicKeySpki, copy: approval.copy, expectedSpki } as const;
    const secondCopy = await second.wrapPrivateKeyForDevice(approvalSource, secondKey, secondId);
    const again = await second.unlockPrivateKeyWithDevice(secondCopy, secondKey, secondId, expectedSpki);
    expect(await opensFileKeysOf(second, again, expectedSpki)).toBe(true);
    // One device's copy does not open on the other.
    await expectCryptoError(first.unlockPrivateKeyWithDevice(secondCopy, firstKey, secondId, expectedSpki), 'WRONG_KEY');

    // Once the request's key pair is released, the approval can no longer be opened.
    await second.releaseKey(request.requestKey);
    await expectCryptoError(second.wrapPrivateKeyForDevice(approvalSource, secondKey, secondId), 'UNKNOWN_KEY');
  });

  it('makes a new recovery key from any source, and checks each source against the account', async () => {
    const pool = newPool();
    const deviceKey = await pool.generateDeviceKey();
    const deviceId = randomUUID();
    const account = await pool.createSsoKeyPair('alice', deviceKey, deviceId);
    const expectedSpki = account.publicKeySpki;

    const renewed = await pool.wrapPrivateKeyForRecovery({ kind: 'recovery', copy: account.recoveryCopy, recoveryKey: account.recoveryKey, username: 'alice', expectedSpki }, 'alice');
    expect(renewed.recoveryKey).not.toBe(account.recoveryKey);
    expect(await opensFileKeysOf(pool, await pool.unlockPrivateKeyWithRecoveryKey(renewed.recoveryCopy, renewed.recoveryKey, 'alice', expectedSpki), expectedSpki)).toBe(true);
    // The old key does not open the new copy.
    await expectCryptoError(pool.unlockPrivateKeyWithRecoveryKey(renewed.recoveryCopy, account.recoveryKey, 'alice', expectedSpki), 'WRONG_KEY');

    // From the login password's key data (an account that had one), checked against the account's key.
    const admin = generateRsaKeyPair();
    const keyData = wrapPrivateKey(admin.privateKey, 'login password', 100_000);
    const fromPassword = await pool.wrapPrivateKeyForRecovery({ kind: 'password', data: keyData, password: 'login password', expectedSpki: admin.publicKeySpki }, 'admin');
    const adminHandle = await pool.unlockPrivateKeyWithRecoveryKey(fromPassword.recoveryCopy, fromPassword.recoveryKey, 'admin', admin.publicKeySpki);
    expect(await opensFileKeysOf(pool, adminHandle, admin.publicKeySpki)).toBe(true);
    await expectCryptoError(pool.wrapPrivateKeyForRecovery({ kind: 'password', data: keyData, password: 'login password', expectedSpki }, 'admin'), 'WRONG_KEY');
    await expectCryptoError(pool.wrapPrivateKeyForDevice({ kind: 'password', data: keyData, password: 'wrong', expectedSpki: admin.publicKeySpki }, deviceKey, deviceId), 'WRONG_PASSWORD');

    // A device source of another account's key pair is refused before anything is wrapped.
    await expectCryptoError(
      pool.approveDeviceRequest({ kind: 'device', copy: account.deviceCopy, deviceKey, deviceId, expectedSpki: admin.publicKeySpki }, randomUUID(), (await pool.createApprovalRequest()).publicKeySpki),
      'WRONG_KEY',
    );
  });
});
