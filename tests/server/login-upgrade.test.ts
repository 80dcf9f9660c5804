// Accounts of the old scheme (a hash of the password itself, the private key under PBKDF2 of it:
// tests/support/legacy-account.ts) move to the new one after their first sign-in, in one call
// (POST /api/auth/upgrade-login): the new login secret and the re-wrapped private key, or neither.
// A fault between the two writes (a trigger that fails the second, so the first has already run
// inside the transaction) leaves the old password signing in and the old key data opening. On
// SQLite and, under `npm run test:pg`, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableStandInParams } from '../../server/auth/prelogin.ts';
import { loadConfig } from '../../server/config.ts';
import { unwrapPrivateKey } from '../../server/crypto/index.ts';
import { openDatabase, type OpenDatabase } from '../../server/db/connection.ts';
import { createLegacyAccount, type LegacyAccount } from '../support/legacy-account.ts';
import { startServer, usingPostgres, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { failLoginSecretUpdates } from './login-secret-fault.ts';

let server: TestServer;
let count = 0;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function legacy(withKeyPair = true): Promise<LegacyAccount> {
  return createLegacyAccount(server.app.repos, { username: `legacy-${++count}`, password: `old password ${count}`, now: server.clock.now(), withKeyPair });
}

/** Signs in as the old scheme requires: the secret is refused with SIGN_IN_UPGRADE_REQUIRED, the password accepted. */
async function firstSignIn(account: LegacyAccount): Promise<TestClient> {
  const client = server.client();
  const bySecret = await client.login(account.user.username, account.password);
  expect(bySecret.status).toBe(401);
  expect(bySecret.body.code).toBe('SIGN_IN_UPGRADE_REQUIRED');
  const byPassword = await client.loginWithPassword(account.user.username, account.password);
  expect(byPassword.status).toBe(200);
  return client;
}

async function storedKeyData(account: LegacyAccount) {
  const keys = (await server.app.repos.users.findKeyData(account.user.id))!;
  return { encryptedPrivateKey: keys.encryptedPrivateKey!, kdfSalt: keys.kdfSalt! };
}

const pkcs8 = (key: ReturnType<typeof unwrapPrivateKey>) => key.export({ type: 'pkcs8', format: 'der' });

describe('an account of the old scheme', () => {
  it('signs in with its password once, then moves to the new scheme with its key re-wrapped, and the password is refused from then on', async () => {
    const account = await legacy();
    const client = await firstSignIn(account);
    const upgraded = await client.upgradeLogin(account.password);
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.user.username).toBe(account.user.username);

    const user = (await server.app.repos.users.findById(account.user.id))!;
    expect(user.kdfParams).not.toBeNull();
    const keyData = await storedKeyData(account);
    expect(keyData.kdfSalt).toBe(user.kdfParams);
    expect(Buffer.from(keyData.kdfSalt, 'base64')[0]).toBe(3);
    expect(pkcs8(unwrapPrivateKey(keyData, account.password)).equals(pkcs8(account.keyPair!.privateKey))).toBe(true);

    // The pre-login answer is now the account's block; the secret signs in, the password does not.
    expect(await server.client().prelogin(account.user.username)).toBe(user.kdfParams);
    expect((await server.client().login(account.user.username, account.password)).status).toBe(200);
    // It was the last account of the old scheme here: the password sign-in is closed from now on.
    const byPassword = await server.client().loginWithPassword(account.user.username, account.password);
    expect(byPassword.status).toBe(403);
    expect(byPassword.body.code).toBe('OLD_SCHEME_SIGN_IN_CLOSED');
    // A second upgrade is refused.
    expect((await client.upgradeLogin(account.password)).body.code).toBe('LOGIN_ALREADY_UPGRADED');
  });

  it('upgrades an account without key data too', async () => {
    const account = await legacy(false);
    const client = await firstSignIn(account);
    expect((await client.upgradeLogin(account.password)).status).toBe(200);
    expect((await server.client().login(account.user.username, account.password)).status).toBe(200);
    expect((await server.app.repos.users.findKeyData(account.user.id))!.encryptedPrivateKey).toBeNull();
  });

  it('refuses a wrong password, a block below the default cost, and key data not wrapped under the new block, and changes nothing', async () => {
    const account = await legacy();
    const client = await firstSignIn(account);
    const before = await storedKeyData(account);

    const wrong = await client.upgradeLogin(account.password, (body) => (body.password = 'not the password'));
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INCORRECT_PASSWORD');
    const cheap = await client.upgradeLogin(account.password, (body) => {
      body.kdf_params = Buffer.concat([Buffer.from([2, 0, 0, 0x4c, 0, 0, 0, 0, 2, 1]), Buffer.alloc(16, 1)]).toString('base64');
    });
    expect(cheap.status).toBe(422);
    const elsewhere = await client.upgradeLogin(account.password, (body) => {
      (body.private_key as Record<string, unknown>).kdfSalt = before.kdfSalt;
    });
    expect(elsewhere.status).toBe(422);

    expect((await server.app.repos.users.findById(account.user.id))!.kdfParams).toBeNull();
    expect(await storedKeyData(account)).toEqual(before);
    expect((await server.client().loginWithPassword(account.user.username, account.password)).status).toBe(200);
  });

  it('stores nothing when the key pair on the server is no longer the one re-wrapped (another tab replaced it)', async () => {
    const account = await legacy();
    const client = await firstSignIn(account);
    const before = await storedKeyData(account);
    const refused = await client.upgradeLogin(account.password, (body) => {
      (body.private_key as Record<string, unknown>).public_key_spki = 'AAAA';
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('KEY_PAIR_CHANGED');
    expect((await server.app.repos.users.findById(account.user.id))!.kdfParams).toBeNull();
    expect(await storedKeyData(account)).toEqual(before);
  });

  it('cannot prove its password to the re-entered-password routes until it has upgraded', async () => {
    const account = await legacy();
    const client = await firstSignIn(account);
    const secret = await client.authSecret(account.user.username, account.password);
    for (const [path, body] of [
      ['/api/auth/verify-password', { auth_secret: secret }],
      ['/api/auth/2fa/disable', { auth_secret: secret }],
    ] as const) {
      const response = await client.post(path, body);
      expect(response.status, path).toBe(401);
      expect(response.body.code, path).toBe('SIGN_IN_UPGRADE_REQUIRED');
    }
    expect((await client.put('/api/auth/users/me', { current_auth_secret: secret, email: null })).body.code).toBe('SIGN_IN_UPGRADE_REQUIRED');
  });

  it('counts each SIGN_IN_UPGRADE_REQUIRED answer as a failed login, so probing for such accounts is bounded like guessing', async () => {
    const account = await legacy(false);
    const client = server.client();
    const secret = await client.authSecret(account.user.username, 'any guess');
    const statuses: number[] = [];
    for (let i = 0; i <= server.config.rateLimit.accountMaxFailures; i++) {
      statuses.push((await client.request('POST', '/api/auth/token', { form: { username: account.user.username, auth_secret: secret } })).status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('gets the same pre-login answer as a name with no account, before its upgrade', async () => {
    const account = await legacy();
    const client = server.client();
    const answer = await client.prelogin(account.user.username);
    expect(answer).toBe(stableStandInParams(await server.app.repos.serverSecrets.get('prelogin'), account.user.username));
  });
});

describe('a fault between the two writes of the upgrade', () => {
  let intruder: OpenDatabase;

  beforeAll(async () => {
    intruder = await openDatabase(loadConfig(server.env).database);
  });
  afterAll(() => intruder.close());

  /** Makes the second write (the login secret) fail, after the first (the key data) ran in the same transaction. */
  const failTheSecondWrite = () => failLoginSecretUpdates(intruder.db, 'fail_login_upgrade', usingPostgres);

  it('leaves the old password signing in and the old key data opening with it; the upgrade then succeeds', async () => {
    const account = await legacy();
    const client = await firstSignIn(account);
    const before = await storedKeyData(account);
    const beforeHash = (await server.app.repos.users.findById(account.user.id))!.passwordHash;

    const removeFault = await failTheSecondWrite();
    let failed;
    try {
      failed = await client.upgradeLogin(account.password);
    } finally {
      await removeFault();
    }
    expect(failed.status).toBe(500);
    // Nothing of the first write survived: the key data is the old scheme-1 data, the login the old hash.
    expect(await storedKeyData(account)).toEqual(before);
    const user = (await server.app.repos.users.findById(account.user.id))!;
    expect(user.kdfParams).toBeNull();
    expect(user.passwordHash).toBe(beforeHash);
    expect(pkcs8(unwrapPrivateKey(before, account.password)).equals(pkcs8(account.keyPair!.privateKey))).toBe(true);
    expect((await server.client().loginWithPassword(account.user.username, account.password)).status).toBe(200);

    // The next try (the next sign-in) upgrades.
    expect((await client.upgradeLogin(account.password)).status).toBe(200);
    expect((await server.client().login(account.user.username, account.password)).status).toBe(200);
  });
});
