// PUT /api/auth/users/me, POST /api/auth/verify-password, POST /api/auth/change-password: each
// takes the re-entered password as its authentication secret, never the password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveAccountSecrets, newArgon2Block, newBoundArgon2Block, readArgon2Block } from '../../server/crypto/index.ts';
import { startServer, signedInClient, type TestServer } from './harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await server.createUser('taken', 'correct horse');
});
afterAll(() => server.close());

describe('PUT /api/auth/users/me', () => {
  it('changes username (the login re-keyed to a block bound to the new name) and e-mail with the current password; email null removes it', async () => {
    const { client, password } = await signedInClient(server, 'erin');
    const secret = await client.authSecret('erin', password);
    const block = newBoundArgon2Block('erin.b');
    const renamed = await client.put('/api/auth/users/me', {
      current_auth_secret: secret,
      username: 'erin.b',
      email: 'erin@example.com',
      new_auth_secret: deriveAccountSecrets(password, block).authSecret,
      new_kdf_params: block,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ username: 'erin.b', email: 'erin@example.com' });
    expect(Object.keys(renamed.body).sort()).toEqual(['email', 'has_password', 'id', 'is_2fa_enabled', 'language', 'org_role', 'public_key_spki', 'username']);

    expect(await server.client().prelogin('erin.b')).toBe(block);
    const removed = await client.put('/api/auth/users/me', { current_auth_secret: await client.authSecret('erin.b', password), email: null });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ username: 'erin.b', email: null });
    expect((await client.get('/api/auth/users/me')).body.email).toBeNull();
    // The new name signs in.
    expect((await server.client().login('erin.b', password)).status).toBe(200);
  });

  it('refuses a new username without the login re-keyed to a block bound to it, and changes nothing', async () => {
    const { client, password } = await signedInClient(server, 'ivan');
    const secret = await client.authSecret('ivan', password);
    const bare = await client.put('/api/auth/users/me', { current_auth_secret: secret, username: 'ivan2' });
    expect(bare.status).toBe(422);
    expect(bare.body.code).toBe('KDF_PARAMS_NOT_BOUND');
    const oldBlock = newBoundArgon2Block('ivan');
    const toOldName = await client.put('/api/auth/users/me', {
      current_auth_secret: secret,
      username: 'ivan2',
      new_auth_secret: deriveAccountSecrets(password, oldBlock).authSecret,
      new_kdf_params: oldBlock,
    });
    expect(toOldName.status).toBe(422);
    expect(toOldName.body.code).toBe('KDF_PARAMS_NOT_BOUND');
    expect((await client.get('/api/auth/users/me')).body.username).toBe('ivan');
    expect(readArgon2Block(Buffer.from(await server.client().prelogin('ivan'), 'base64')).boundName).toBe('ivan');
    expect((await server.client().login('ivan', password)).status).toBe(200);
  });

  it('answers 409 "Username already taken", in any letter case', async () => {
    const { client, password } = await signedInClient(server, 'frank');
    const secret = await client.authSecret('frank', password);
    const block = newBoundArgon2Block('TAKEN');
    const response = await client.put('/api/auth/users/me', {
      current_auth_secret: secret,
      username: 'TAKEN',
      new_auth_secret: deriveAccountSecrets(password, block).authSecret,
      new_kdf_params: block,
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ detail: 'Username already taken', code: 'USERNAME_TAKEN' });
    // Changing only the letter case of one's own name is allowed.
    const recased = await client.put('/api/auth/users/me', { current_auth_secret: secret, username: 'Frank' });
    expect(recased.status).toBe(200);
    expect(recased.body.username).toBe('Frank');
  });

  it('answers 401 "Incorrect password" for a wrong current password and changes nothing', async () => {
    const { client } = await signedInClient(server, 'gina');
    const response = await client.put('/api/auth/users/me', { current_auth_secret: await client.authSecret('gina', 'wrong horse'), username: 'gina2' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' });
    expect((await client.get('/api/auth/users/me')).body.username).toBe('gina');
  });

  it('answers 422 for a short or ill-formed username, a bad e-mail, or no current password', async () => {
    const { client, password } = await signedInClient(server, 'hank');
    const secret = await client.authSecret('hank', password);
    const short = await client.put('/api/auth/users/me', { current_auth_secret: secret, username: 'ab' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({ detail: [{ loc: ['body', 'username'], msg: 'Username must be at least 3 characters' }], code: 'VALIDATION_FAILED' });

    const spaces = await client.put('/api/auth/users/me', { current_auth_secret: secret, username: 'a b c' });
    expect(spaces.status).toBe(422);
    expect(spaces.body.detail[0].loc).toEqual(['body', 'username']);

    const email = await client.put('/api/auth/users/me', { current_auth_secret: secret, email: 'not-an-email' });
    expect(email.status).toBe(422);
    expect(email.body.detail[0]).toEqual({ loc: ['body', 'email'], msg: 'Enter a valid e-mail address' });

    const noPassword = await client.put('/api/auth/users/me', { username: 'hank2' });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body.detail[0]).toEqual({ loc: ['body', 'current_auth_secret'], msg: 'Field required' });
    // The password itself in the secret's field is refused by shape, before any check.
    const typed = await client.put('/api/auth/users/me', { current_auth_secret: password, username: 'hank2' });
    expect(typed.status).toBe(422);
  });

  it('needs a session (401 before validation)', async () => {
    const client = server.client();
    await client.primeCsrf();
    const response = await client.put('/api/auth/users/me', { username: 'x' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
  });
});

describe('POST /api/auth/verify-password', () => {
  it('answers {verified: true} for the right password\'s secret and 401 otherwise', async () => {
    const { client, password } = await signedInClient(server, 'ivy');
    expect((await client.post('/api/auth/verify-password', { auth_secret: await client.authSecret('ivy', password) })).body).toEqual({ verified: true });
    const wrong = await client.post('/api/auth/verify-password', { auth_secret: await client.authSecret('ivy', 'wrong horse') });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' });
    expect((await client.post('/api/auth/verify-password', {})).status).toBe(422);
    expect((await client.post('/api/auth/verify-password', { password })).status).toBe(422);
  });
});

describe('POST /api/auth/change-password', () => {
  it('changes the password, keeps this session and ends the others', async () => {
    const { client, password } = await signedInClient(server, 'jack');
    const otherBrowser = server.client();
    await otherBrowser.login('jack', password);
    const before = await client.prelogin('jack');

    const response = await client.changePassword('jack', password, 'battery staple');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ detail: 'Password changed' });
    expect((await client.get('/api/auth/users/me')).status).toBe(200);
    const ended = await otherBrowser.get('/api/auth/users/me');
    expect(ended.status).toBe(401);
    expect(ended.body).toEqual({ detail: 'Session expired', code: 'SESSION_EXPIRED' });

    // The account's parameters are the new block (a fresh salt) from now on.
    expect(await client.prelogin('jack')).not.toBe(before);
    expect((await server.client().login('jack', password)).status).toBe(401);
    expect((await server.client().login('jack', 'battery staple')).status).toBe(200);
  });

  it('answers 401 for a wrong old password, 422 for an unchanged secret and for parameters below (or above) the default cost', async () => {
    const { client, password } = await signedInClient(server, 'kate');
    const wrong = await client.changePassword('kate', 'wrong horse', 'battery staple');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' });

    const secret = await client.authSecret('kate', password);
    const same = await client.post('/api/auth/change-password', { old_auth_secret: secret, new_auth_secret: secret, new_kdf_params: await client.prelogin('kate') });
    expect(same.status).toBe(422);
    expect(same.body.detail[0]).toEqual({ loc: ['body', 'new_auth_secret'], msg: 'New password cannot be the same as the old password.' });

    for (const cost of [{ memoryKiB: 19_456, passes: 2, lanes: 1 }, { memoryKiB: 131_072, passes: 3, lanes: 1 }]) {
      const kdfParams = newArgon2Block(undefined, cost);
      const cheap = await client.post('/api/auth/change-password', {
        old_auth_secret: secret,
        new_auth_secret: deriveAccountSecrets('battery staple', kdfParams).authSecret,
        new_kdf_params: kdfParams,
      });
      expect(cheap.status).toBe(422);
      expect(cheap.body.detail[0].loc).toEqual(['body', 'new_kdf_params']);
    }
    const scheme1 = Buffer.concat([Buffer.from([1, 0, 3, 0xd0, 0x90]), Buffer.alloc(21)]).toString('base64');
    expect((await client.post('/api/auth/change-password', { old_auth_secret: secret, new_auth_secret: secret.replace(/^./, 'B'), new_kdf_params: scheme1 })).status).toBe(422);
    expect((await server.client().login('kate', password)).status).toBe(200);
  });
});
