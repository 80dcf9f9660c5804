// Accounts whose parameter block is not bound to their name (scheme 2, what accounts had before
// scheme 3) move to a bound block right after a sign-in with the old one, in one call
// (POST /api/auth/bind-login): the new login secret and the re-wrapped private key, or neither. A
// fault between the two writes leaves the old block signing in and the old key data opening. The
// pre-login's stand-in for an unknown name is a bound block for that name. On SQLite and, under
// `npm run test:pg`, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashAuthSecret } from '../../server/auth/login-secret.ts';
import { loadConfig } from '../../server/config.ts';
import { deriveAccountSecrets, generateRsaKeyPair, newArgon2Block, newBoundArgon2Block, readArgon2Block, unwrapPrivateKey, wrapPrivateKeyScheme2 } from '../../server/crypto/index.ts';
import { openDatabase, type OpenDatabase } from '../../server/db/connection.ts';
import type { User } from '../../server/db/repositories/index.ts';
import { startServer, TEST_KDF_COST, usingPostgres, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { failLoginSecretUpdates } from './login-secret-fault.ts';

let server: TestServer;
let count = 0;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

interface UnboundAccount {
  user: User;
  password: string;
  privateKey: ReturnType<typeof generateRsaKeyPair>['privateKey'];
}

/** An account as scheme 2 left it: an unbound block, the private key wrapped under it. */
async function unboundAccount(): Promise<UnboundAccount> {
  const password = `unbound password ${++count}`;
  const user = await server.createUser(`unbound-${count}`, password);
  const kdfParams = newArgon2Block(undefined, TEST_KDF_COST);
  await server.app.repos.users.setLoginSecret(user.id, { kdfParams, passwordHash: await hashAuthSecret(deriveAccountSecrets(password, kdfParams).authSecret) });
  const pair = generateRsaKeyPair();
  const wrapped = wrapPrivateKeyScheme2(pair.privateKey, password, kdfParams);
  const client = await signedIn(user.username, password);
  const stored = await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki });
  expect(stored.status).toBe(200);
  expect((await client.put('/api/auth/users/me/encrypted-key', wrapped)).status).toBe(200);
  return { user: (await server.app.repos.users.findById(user.id))!, password, privateKey: pair.privateKey };
}

async function signedIn(username: string, password: string): Promise<TestClient> {
  const client = server.client();
  expect((await client.login(username, password)).status).toBe(200);
  return client;
}

async function storedKeyData(account: UnboundAccount) {
  const keys = (await server.app.repos.users.findKeyData(account.user.id))!;
  return { encryptedPrivateKey: keys.encryptedPrivateKey!, kdfSalt: keys.kdfSalt! };
}

const pkcs8 = (key: ReturnType<typeof unwrapPrivateKey>) => key.export({ type: 'pkcs8', format: 'der' });

describe('an account whose block is not bound to its name', () => {
  it('moves to a block bound to its name at its next sign-in, its private key re-wrapped under it and still opening', async () => {
    const account = await unboundAccount();
    const client = await signedIn(account.user.username, account.password);
    const moved = await client.bindLogin(account.password);
    expect(moved.status).toBe(200);

    const user = (await server.app.repos.users.findById(account.user.id))!;
    expect(readArgon2Block(Buffer.from(user.kdfParams!, 'base64')).boundName).toBe(account.user.username);
    const keyData = await storedKeyData(account);
    expect(keyData.kdfSalt).toBe(user.kdfParams);
    expect(pkcs8(unwrapPrivateKey(keyData, account.password)).equals(pkcs8(account.privateKey))).toBe(true);
    // The pre-login answers the bound block; the password signs in under it; a second move is refused.
    expect(await server.client().prelogin(account.user.username)).toBe(user.kdfParams);
    expect((await server.client().login(account.user.username, account.password)).status).toBe(200);
    expect((await client.bindLogin(account.password)).body.code).toBe('LOGIN_ALREADY_UPGRADED');
  });

  it('refuses a wrong current secret, a block bound to another name, and a block not bound at all, and changes nothing', async () => {
    const account = await unboundAccount();
    const client = await signedIn(account.user.username, account.password);
    const before = await storedKeyData(account);
    const wrong = await client.bindLogin(account.password, (body) => {
      body.auth_secret = deriveAccountSecrets('not the password', account.user.kdfParams!).authSecret;
    });
    expect(wrong.body.code).toBe('INCORRECT_PASSWORD');
    const otherName = await client.bindLogin(account.password, (body) => {
      const block = newBoundArgon2Block('someone-else');
      body.new_kdf_params = block;
      body.new_auth_secret = deriveAccountSecrets(account.password, block).authSecret;
      delete body.private_key;
    });
    expect(otherName.status).toBe(422);
    expect(otherName.body.code).toBe('KDF_PARAMS_NOT_BOUND');
    const unbound = await client.bindLogin(account.password, (body) => {
      body.new_kdf_params = newArgon2Block();
      delete body.private_key;
    });
    expect(unbound.status).toBe(422);
    expect((await server.app.repos.users.findById(account.user.id))!.kdfParams).toBe(account.user.kdfParams);
    expect(await storedKeyData(account)).toEqual(before);
  });
});

describe('a new password', () => {
  it('is refused under a block not bound to the account name', async () => {
    const account = await unboundAccount();
    const client = await signedIn(account.user.username, account.password);
    const block = newBoundArgon2Block('someone-else');
    const refused = await client.post('/api/auth/change-password', {
      old_auth_secret: await client.authSecret(account.user.username, account.password),
      new_auth_secret: deriveAccountSecrets('a new password', block).authSecret,
      new_kdf_params: block,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('KDF_PARAMS_NOT_BOUND');
    expect((await client.changePassword(account.user.username, account.password, 'a new password')).status).toBe(200);
  });
});

describe('the pre-login', () => {
  it('answers a block bound to the lower-cased name for names with no account, and for accounts made now', async () => {
    const standIn = readArgon2Block(Buffer.from(await server.client().prelogin('Nobody-Here'), 'base64'));
    expect(standIn.boundName).toBe('nobody-here');
    const user = await server.createUser(`Bound-${++count}`, 'a password for it');
    const block = readArgon2Block(Buffer.from(await server.client().prelogin(user.username), 'base64'));
    expect(block.boundName).toBe(user.username.toLowerCase());
  });
});

describe('a fault between the two writes of the move', () => {
  let intruder: OpenDatabase;

  beforeAll(async () => {
    intruder = await openDatabase(loadConfig(server.env).database);
  });
  afterAll(() => intruder.close());

  /** Makes the second write (the login secret) fail, after the first (the key data) ran in the same transaction. */
  const failTheSecondWrite = () => failLoginSecretUpdates(intruder.db, 'fail_login_bind', usingPostgres);

  it('leaves the old block signing in and the old key data opening; the move then succeeds', async () => {
    const account = await unboundAccount();
    const client = await signedIn(account.user.username, account.password);
    const before = await storedKeyData(account);
    const beforeHash = (await server.app.repos.users.findById(account.user.id))!.passwordHash;

    const removeFault = await failTheSecondWrite();
    let failed;
    try {
      failed = await client.bindLogin(account.password);
    } finally {
      await removeFault();
    }
    expect(failed.status).toBe(500);
    expect(await storedKeyData(account)).toEqual(before);
    const user = (await server.app.repos.users.findById(account.user.id))!;
    expect(user.kdfParams).toBe(account.user.kdfParams);
    expect(user.passwordHash).toBe(beforeHash);
    expect(pkcs8(unwrapPrivateKey(before, account.password)).equals(pkcs8(account.privateKey))).toBe(true);
    expect((await server.client().login(account.user.username, account.password)).status).toBe(200);

    expect((await client.bindLogin(account.password)).status).toBe(200);
    expect((await server.client().login(account.user.username, account.password)).status).toBe(200);
  });
});
