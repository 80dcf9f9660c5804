// The password sign-in of accounts made before zero-knowledge sign-in is a door that a hostile
// server, a proxy or a database writer would like to reopen: one SIGN_IN_UPGRADE_REQUIRED answer
// and an app that trusts it sends the password itself. The server closes it for good once no
// account of the old scheme is left (a new install starts closed), and OLD_SCHEME_SIGN_IN=off
// closes it at once. A database edit that makes an account look old (kdf_params NULL) does not
// reopen it: the account then answers like a wrong secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, type OpenDatabase } from '../../server/db/connection.ts';
import { createLegacyAccount } from '../support/legacy-account.ts';
import { startServer, type TestServer } from './harness.ts';

let count = 0;
const nextName = () => `closing-${++count}`;

/** What a database writer does to make an upgraded account look like one of the old scheme. */
async function makeLookOld(server: TestServer, userId: number): Promise<void> {
  const intruder: OpenDatabase = await openDatabase(loadConfig(server.env).database);
  try {
    await intruder.db.updateTable('users').set({ kdf_params: null }).where('id', '=', userId).execute();
  } finally {
    await intruder.close();
  }
}

describe('on a new install', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('no password is taken at sign-in: the password route answers OLD_SCHEME_SIGN_IN_CLOSED', async () => {
    const name = nextName();
    await server.createUser(name, 'a good password');
    const response = await server.client().loginWithPassword(name, 'a good password');
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('OLD_SCHEME_SIGN_IN_CLOSED');
    expect(await server.app.repos.oldSchemeSignIn.isClosed()).toBe(true);
  });

  it('an account made to look old in the database gets no SIGN_IN_UPGRADE_REQUIRED, and its password is refused', async () => {
    const name = nextName();
    const user = await server.createUser(name, 'a good password');
    await makeLookOld(server, user.id);
    const bySecret = await server.client().login(name, 'a good password');
    expect(bySecret.status).toBe(401);
    expect(bySecret.body.code).toBe('INCORRECT_CREDENTIALS');
    const byPassword = await server.client().loginWithPassword(name, 'a good password');
    expect(byPassword.status).toBe(403);
    expect(byPassword.body.code).toBe('OLD_SCHEME_SIGN_IN_CLOSED');
  });
});

describe('with accounts of the old scheme', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('the last upgrade closes the password sign-in, and making an account look old afterwards does not reopen it', async () => {
    const account = await createLegacyAccount(server.app.repos, { username: nextName(), password: 'old password', now: server.clock.now() });
    const client = server.client();
    expect((await client.login(account.user.username, account.password)).body.code).toBe('SIGN_IN_UPGRADE_REQUIRED');
    expect((await client.loginWithPassword(account.user.username, account.password)).status).toBe(200);
    expect((await client.upgradeLogin(account.password)).status).toBe(200);
    expect(await server.app.repos.oldSchemeSignIn.isClosed()).toBe(true);

    await makeLookOld(server, account.user.id);
    const bySecret = await server.client().login(account.user.username, account.password);
    expect(bySecret.body.code).toBe('INCORRECT_CREDENTIALS');
    expect((await server.client().loginWithPassword(account.user.username, account.password)).body.code).toBe('OLD_SCHEME_SIGN_IN_CLOSED');

    // The closing is in the database: a server started again on the same data keeps it.
    const again = await startServer({ env: { DATA_DIR: server.env.DATA_DIR! }, sameDatabaseAs: server });
    try {
      expect((await again.client().login(account.user.username, account.password)).body.code).toBe('INCORRECT_CREDENTIALS');
      expect((await again.client().loginWithPassword(account.user.username, account.password)).body.code).toBe('OLD_SCHEME_SIGN_IN_CLOSED');
    } finally {
      await again.close();
    }
  });
});

describe('with OLD_SCHEME_SIGN_IN=off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { OLD_SCHEME_SIGN_IN: 'off' } });
  });
  afterAll(() => server.close());

  it('an account of the old scheme still left cannot sign in with its password, and is not told to send it', async () => {
    const account = await createLegacyAccount(server.app.repos, { username: nextName(), password: 'old password', now: server.clock.now() });
    const bySecret = await server.client().login(account.user.username, account.password);
    expect(bySecret.status).toBe(401);
    expect(bySecret.body.code).toBe('INCORRECT_CREDENTIALS');
    const byPassword = await server.client().loginWithPassword(account.user.username, account.password);
    expect(byPassword.status).toBe(403);
    expect(byPassword.body.code).toBe('OLD_SCHEME_SIGN_IN_CLOSED');
  });
});
