// The key routes (docs/api.md "Keys"): PUT/GET /api/auth/public-key, GET/PUT
// /api/auth/users/me/encrypted-key. Real HTTP, real database; key material from the node:crypto
// reference implementation, so what is stored is checked to open with the login password only.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRsaKeyPair, unwrapPrivateKey, wrapPrivateKey, wrapPrivateKeyScheme2, type NodeKeyPair } from '../../server/crypto/keys.ts';
import { OfflineCryptoError } from '../../server/crypto/errors.ts';
import { startServer, signedInClient, type TestServer } from './harness.ts';

let server: TestServer;
let pair: NodeKeyPair;

beforeAll(async () => {
  server = await startServer();
  pair = generateRsaKeyPair();
});
afterAll(() => server.close());

const derBase64 = (key: ReturnType<typeof generateKeyPairSync>['publicKey']) =>
  key.export({ type: 'spki', format: 'der' }).toString('base64');

function publicKeyIssue(body: any): string {
  expect(body.detail).toHaveLength(1);
  expect(body.detail[0].loc).toEqual(['body', 'public_key_spki']);
  return body.detail[0].msg;
}

describe('PUT and GET /api/auth/public-key', () => {
  it('stores an RSA-2048 SPKI, answers the User with it, and GET returns it', async () => {
    const { client } = await signedInClient(server, 'pk-alice');
    expect((await client.get('/api/auth/public-key')).status).toBe(404);
    expect((await client.get('/api/auth/public-key')).body).toEqual({ detail: 'Public key not found', code: 'PUBLIC_KEY_NOT_FOUND' });

    const put = await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ username: 'pk-alice', public_key_spki: pair.publicKeySpki });
    expect(Object.keys(put.body).sort()).toEqual(['email', 'has_password', 'id', 'is_2fa_enabled', 'language', 'org_role', 'public_key_spki', 'username']);

    const get = await client.get('/api/auth/public-key');
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ public_key_spki: pair.publicKeySpki });
    expect((await client.get('/api/auth/users/me')).body.public_key_spki).toBe(pair.publicKeySpki);
  });

  it('refuses malformed base64 with 422 on the field', async () => {
    const { client } = await signedInClient(server, 'pk-bad64');
    for (const value of ['not base64!', pair.publicKeySpki.slice(0, -1), `${pair.publicKeySpki}\n`, 'QUJD=']) {
      const response = await client.put('/api/auth/public-key', { public_key_spki: value });
      expect(response.status).toBe(422);
      expect(publicKeyIssue(response.body)).toBe('Public key is not valid base64');
    }
    expect((await client.get('/api/auth/public-key')).status).toBe(404);
  });

  it('refuses what is not an RSA-2048 SPKI: random bytes, an EC key, RSA-PSS, trailing bytes, other sizes', async () => {
    const { client } = await signedInClient(server, 'pk-wrong');
    const notSpki = Buffer.from('this is not a DER structure at all').toString('base64');
    const ec = derBase64(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
    const pss = derBase64(generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).publicKey);
    const trailing = Buffer.concat([Buffer.from(pair.publicKeySpki, 'base64'), Buffer.from([0])]).toString('base64');
    for (const value of [notSpki, ec, pss, trailing]) {
      const response = await client.put('/api/auth/public-key', { public_key_spki: value });
      expect(response.status).toBe(422);
      expect(publicKeyIssue(response.body)).toBe('Public key is not an RSA public key in SPKI format');
    }
    const small = derBase64(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey);
    const exponent3 = derBase64(generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 3 }).publicKey);
    for (const value of [small, exponent3]) {
      const response = await client.put('/api/auth/public-key', { public_key_spki: value });
      expect(response.status).toBe(422);
      expect(publicKeyIssue(response.body)).toBe('Public key must be RSA-2048 with exponent 65537');
    }
  });

  it('refuses a missing, empty, non-text or oversized field', async () => {
    const { client } = await signedInClient(server, 'pk-missing');
    expect(publicKeyIssue((await client.put('/api/auth/public-key', {})).body)).toBe('Field required');
    expect(publicKeyIssue((await client.put('/api/auth/public-key', { public_key_spki: '' })).body)).toBe('Public key is required');
    expect(publicKeyIssue((await client.put('/api/auth/public-key', { public_key_spki: 42 })).body)).toBe('Public key must be text');
    const huge = await client.put('/api/auth/public-key', { public_key_spki: 'A'.repeat(4100) });
    expect(huge.status).toBe(422);
    expect(publicKeyIssue(huge.body)).toBe('Public key must be at most 4096 characters');
    const noBody = await client.request('PUT', '/api/auth/public-key');
    expect(noBody.status).toBe(422);
  });
});

describe('GET and PUT /api/auth/users/me/encrypted-key', () => {
  it("answers 404 'Encrypted key data not found' until key data is saved, then returns exactly it (no-store)", async () => {
    const { client, password } = await signedInClient(server, 'ek-alice');
    const missing = await client.get('/api/auth/users/me/encrypted-key');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Encrypted key data not found', code: 'ENCRYPTED_KEY_NOT_FOUND' });

    await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki });
    const data = wrapPrivateKey(pair.privateKey, password, 100_000);
    const put = await client.put('/api/auth/users/me/encrypted-key', data);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ username: 'ek-alice', public_key_spki: pair.publicKeySpki });
    expect(put.body).not.toHaveProperty('encryptedPrivateKey');

    const get = await client.get('/api/auth/users/me/encrypted-key');
    expect(get.status).toBe(200);
    expect(get.body).toEqual(data);
    expect(get.headers.get('cache-control')).toBe('no-store');
  });

  it('what the server stores opens with the login password only, and the login password is not in it', async () => {
    const { client, user, password } = await signedInClient(server, 'ek-bob');
    await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki });
    // As the app wraps it: scheme 2 under the account's own parameter block.
    await client.put('/api/auth/users/me/encrypted-key', wrapPrivateKeyScheme2(pair.privateKey, password, await client.prelogin('ek-bob')));

    const keys = await server.app.repos.users.findKeyData(user.id);
    const account = await server.app.repos.users.findById(user.id);
    const stored = { encryptedPrivateKey: keys!.encryptedPrivateKey!, kdfSalt: keys!.kdfSalt! };
    expect(stored.kdfSalt).toBe(account!.kdfParams);
    expect(JSON.stringify({ keys, account })).not.toContain(password);
    const opened = unwrapPrivateKey(stored, password);
    expect(opened.export({ type: 'pkcs8', format: 'der' }).equals(pair.privateKey.export({ type: 'pkcs8', format: 'der' }))).toBe(true);
    // Neither the password hash, the authentication secret the server saw, nor anything else in the row opens it.
    const authSecret = await client.authSecret('ek-bob', password);
    for (const guess of [account!.passwordHash, authSecret, account!.username, keys!.publicKeySpki!, 'wrong horse']) {
      expect(() => unwrapPrivateKey(stored, guess)).toThrow(OfflineCryptoError);
    }
  });

  it('refuses malformed base64, missing fields, too-short data and oversized values', async () => {
    const { client } = await signedInClient(server, 'ek-bad');
    const good = wrapPrivateKey(pair.privateKey, 'whatever', 100_000);
    const cases: Array<[unknown, string, string]> = [
      [{ ...good, encryptedPrivateKey: 'no base64 here' }, 'encryptedPrivateKey', 'Encrypted private key is not valid base64'],
      [{ ...good, encryptedPrivateKey: `${good.encryptedPrivateKey.slice(0, -4)}A===` }, 'encryptedPrivateKey', 'Encrypted private key is not valid base64'],
      [{ ...good, kdfSalt: 'sa!t' }, 'kdfSalt', 'Key derivation salt is not valid base64'],
      [{ kdfSalt: good.kdfSalt }, 'encryptedPrivateKey', 'Field required'],
      [{ encryptedPrivateKey: good.encryptedPrivateKey }, 'kdfSalt', 'Field required'],
      [{ ...good, encryptedPrivateKey: '' }, 'encryptedPrivateKey', 'Encrypted private key is required'],
      [{ ...good, kdfSalt: null }, 'kdfSalt', 'Key derivation salt must be text'],
      [
        { ...good, encryptedPrivateKey: Buffer.alloc(28).toString('base64') },
        'encryptedPrivateKey',
        'Encrypted private key is too short to contain IV and ciphertext',
      ],
      [{ ...good, kdfSalt: Buffer.alloc(8).toString('base64') }, 'kdfSalt', 'Key derivation salt is too short'],
      [{ ...good, kdfSalt: Buffer.alloc(80).toString('base64') }, 'kdfSalt', 'Key derivation salt is too long'],
      [{ ...good, encryptedPrivateKey: 'A'.repeat(8196) }, 'encryptedPrivateKey', 'Encrypted private key must be at most 8192 characters'],
    ];
    for (const [body, field, message] of cases) {
      const response = await client.put('/api/auth/users/me/encrypted-key', body);
      expect(response.status, `${field}: ${message}`).toBe(422);
      expect(response.body.detail).toContainEqual({ loc: ['body', field], msg: message });
    }
    expect((await client.get('/api/auth/users/me/encrypted-key')).status).toBe(404);
  });

  it('a different public key removes the wrapped private key of the old pair; the same one keeps it', async () => {
    const { client, password } = await signedInClient(server, 'ek-rotate');
    const data = wrapPrivateKey(pair.privateKey, password, 100_000);
    await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki });
    await client.put('/api/auth/users/me/encrypted-key', data);

    expect((await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki })).status).toBe(200);
    expect((await client.get('/api/auth/users/me/encrypted-key')).body).toEqual(data);

    const other = generateRsaKeyPair();
    expect((await client.put('/api/auth/public-key', { public_key_spki: other.publicKeySpki })).status).toBe(200);
    expect((await client.get('/api/auth/users/me/encrypted-key')).status).toBe(404);
    expect((await client.get('/api/auth/public-key')).body).toEqual({ public_key_spki: other.publicKeySpki });
  });
});

describe('sessions, CSRF and ownership', () => {
  it('every key route needs a session (401 before validation)', async () => {
    const client = server.client();
    await client.primeCsrf();
    for (const [method, path] of [
      ['GET', '/api/auth/public-key'],
      ['PUT', '/api/auth/public-key'],
      ['GET', '/api/auth/users/me/encrypted-key'],
      ['PUT', '/api/auth/users/me/encrypted-key'],
    ] as const) {
      const response = await client.request(method, path, method === 'PUT' ? { json: { bogus: true } } : {});
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
    }
  });

  it('PUTs need the CSRF header of the session', async () => {
    const { client, password } = await signedInClient(server, 'csrf-keys');
    const noHeader = await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki }, { csrf: false });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body).toEqual({ detail: 'CSRF validation failed', code: 'CSRF_FAILED' });
    const wrong = await client.put('/api/auth/users/me/encrypted-key', wrapPrivateKey(pair.privateKey, password, 100_000), {
      csrf: 'z'.repeat(43),
    });
    expect(wrong.status).toBe(403);
    expect((await client.get('/api/auth/public-key')).status).toBe(404);
    expect((await client.get('/api/auth/users/me/encrypted-key')).status).toBe(404);
  });

  it("one admin's session reads and writes only their own keys", async () => {
    const alice = await signedInClient(server, 'own-alice');
    const bob = await signedInClient(server, 'own-bob');
    const data = wrapPrivateKey(pair.privateKey, alice.password, 100_000);
    await alice.client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki });
    await alice.client.put('/api/auth/users/me/encrypted-key', data);

    expect((await bob.client.get('/api/auth/public-key')).status).toBe(404);
    expect((await bob.client.get('/api/auth/users/me/encrypted-key')).status).toBe(404);

    const bobPair = generateRsaKeyPair();
    await bob.client.put('/api/auth/public-key', { public_key_spki: bobPair.publicKeySpki });
    await bob.client.put('/api/auth/users/me/encrypted-key', wrapPrivateKey(bobPair.privateKey, bob.password, 100_000));
    expect((await alice.client.get('/api/auth/public-key')).body).toEqual({ public_key_spki: pair.publicKeySpki });
    expect((await alice.client.get('/api/auth/users/me/encrypted-key')).body).toEqual(data);
  });

  it('a password change leaves the stored key data untouched (the browser re-wraps it)', async () => {
    const { client, password } = await signedInClient(server, 'pw-keys');
    const data = wrapPrivateKey(pair.privateKey, password, 100_000);
    await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki });
    await client.put('/api/auth/users/me/encrypted-key', data);
    const changed = await client.changePassword('pw-keys', password, 'a brand new password');
    expect(changed.status).toBe(200);
    expect((await client.get('/api/auth/users/me/encrypted-key')).body).toEqual(data);
  });
});
