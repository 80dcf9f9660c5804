// PUT /api/auth/users/me, POST /api/auth/verify-password, POST /api/auth/change-password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await server.createUser('taken', 'correct horse');
});
afterAll(() => server.close());

describe('PUT /api/auth/users/me', () => {
  it('changes username and e-mail with the current password; email null removes it', async () => {
    const { client, password } = await signedInClient(server, 'erin');
    const renamed = await client.put('/api/auth/users/me', {
      current_password: password,
      username: 'erin.b',
      email: 'erin@example.com',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ username: 'erin.b', email: 'erin@example.com' });
    expect(Object.keys(renamed.body).sort()).toEqual(['email', 'id', 'is_2fa_enabled', 'public_key_spki', 'username']);

    const removed = await client.put('/api/auth/users/me', { current_password: password, email: null });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ username: 'erin.b', email: null });
    expect((await client.get('/api/auth/users/me')).body.email).toBeNull();
    // The new name signs in.
    expect((await server.client().login('erin.b', password)).status).toBe(200);
  });

  it('answers 409 "Username already taken", in any letter case', async () => {
    const { client, password } = await signedInClient(server, 'frank');
    const response = await client.put('/api/auth/users/me', { current_password: password, username: 'TAKEN' });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ detail: 'Username already taken', code: 'USERNAME_TAKEN' });
    // Changing only the letter case of one's own name is allowed.
    const recased = await client.put('/api/auth/users/me', { current_password: password, username: 'Frank' });
    expect(recased.status).toBe(200);
    expect(recased.body.username).toBe('Frank');
  });

  it('answers 401 "Incorrect password" for a wrong current password and changes nothing', async () => {
    const { client } = await signedInClient(server, 'gina');
    const response = await client.put('/api/auth/users/me', { current_password: 'wrong horse', username: 'gina2' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' });
    expect((await client.get('/api/auth/users/me')).body.username).toBe('gina');
  });

  it('answers 422 for a short or ill-formed username, a bad e-mail, or no current password', async () => {
    const { client, password } = await signedInClient(server, 'hank');
    const short = await client.put('/api/auth/users/me', { current_password: password, username: 'ab' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({ detail: [{ loc: ['body', 'username'], msg: 'Username must be at least 3 characters' }], code: 'VALIDATION_FAILED' });

    const spaces = await client.put('/api/auth/users/me', { current_password: password, username: 'a b c' });
    expect(spaces.status).toBe(422);
    expect(spaces.body.detail[0].loc).toEqual(['body', 'username']);

    const email = await client.put('/api/auth/users/me', { current_password: password, email: 'not-an-email' });
    expect(email.status).toBe(422);
    expect(email.body.detail[0]).toEqual({ loc: ['body', 'email'], msg: 'Enter a valid e-mail address' });

    const noPassword = await client.put('/api/auth/users/me', { username: 'hank2' });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body.detail[0]).toEqual({ loc: ['body', 'current_password'], msg: 'Field required' });
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
  it('answers {verified: true} for the right password and 401 otherwise', async () => {
    const { client, password } = await signedInClient(server, 'ivy');
    expect((await client.post('/api/auth/verify-password', { password })).body).toEqual({ verified: true });
    const wrong = await client.post('/api/auth/verify-password', { password: 'wrong horse' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' });
    expect((await client.post('/api/auth/verify-password', {})).status).toBe(422);
  });
});

describe('POST /api/auth/change-password', () => {
  it('changes the password, keeps this session and ends the others', async () => {
    const { client, password } = await signedInClient(server, 'jack');
    const otherBrowser = server.client();
    await otherBrowser.login('jack', password);

    const response = await client.post('/api/auth/change-password', {
      old_password: password,
      new_password: 'battery staple',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ detail: 'Password changed' });
    expect((await client.get('/api/auth/users/me')).status).toBe(200);
    const ended = await otherBrowser.get('/api/auth/users/me');
    expect(ended.status).toBe(401);
    expect(ended.body).toEqual({ detail: 'Session expired', code: 'SESSION_EXPIRED' });

    expect((await server.client().login('jack', password)).status).toBe(401);
    expect((await server.client().login('jack', 'battery staple')).status).toBe(200);
  });

  it('answers 401 for a wrong old password and 422 for a short or unchanged new one', async () => {
    const { client, password } = await signedInClient(server, 'kate');
    const wrong = await client.post('/api/auth/change-password', { old_password: 'wrong horse', new_password: 'battery staple' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' });

    const short = await client.post('/api/auth/change-password', { old_password: password, new_password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({
      detail: [{ loc: ['body', 'new_password'], msg: 'New password must be at least 8 characters long.' }],
      code: 'VALIDATION_FAILED',
    });

    const same = await client.post('/api/auth/change-password', { old_password: password, new_password: password });
    expect(same.status).toBe(422);
    expect(same.body).toEqual({
      detail: [{ loc: ['body', 'new_password'], msg: 'New password cannot be the same as the old password.' }],
      code: 'VALIDATION_FAILED',
    });
    expect((await server.client().login('kate', password)).status).toBe(200);
  });
});
