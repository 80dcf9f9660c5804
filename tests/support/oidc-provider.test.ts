// Proves the single sign-on test harness against the relying-party library the server uses
// (openid-client v6): discovery, PKCE, state and nonce, the code exchange, and each refusal the
// server will have to handle. No relying-party server runs: the redirect URI is never requested.
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, ProviderSignInError, confirmSignOutAtProvider, signInAtProvider } from './oidc-login.ts';
import { startTestProvider, type TestProvider } from './oidc-provider.ts';

const REDIRECT_URI = 'http://127.0.0.1:8080/api/auth/sso/callback';
const POST_LOGOUT_URI = 'http://127.0.0.1:8080/signed-out';

async function discover(provider: TestProvider): Promise<client.Configuration> {
  return client.discovery(new URL(provider.issuer), provider.client.clientId, undefined, client.ClientSecretBasic(provider.client.clientSecret), {
    execute: [client.allowInsecureRequests],
  });
}

/** What the relying party keeps between sending the browser away and its callback. */
async function startAuthorization(config: client.Configuration, extra: Record<string, string> = {}) {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile groups',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, checks: { pkceCodeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true } };
}

async function signIn(config: client.Configuration, login: string, cookieJar = new CookieJar()) {
  const { url, checks } = await startAuthorization(config);
  const callback = await signInAtProvider(url, login, { cookieJar });
  return client.authorizationCodeGrant(config, callback, checks);
}

/** The rejection of `promise`, for assertions on its fixed fields. */
async function refusal(promise: Promise<unknown>): Promise<{ name?: string; code?: string; error?: string }> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: unknown) => error as { name?: string; code?: string; error?: string },
  );
}

describe('test OpenID Connect provider', () => {
  let provider: TestProvider;
  let config: client.Configuration;

  beforeAll(async () => {
    provider = await startTestProvider({
      redirectUris: [REDIRECT_URI],
      postLogoutRedirectUris: [POST_LOGOUT_URI],
      users: { alice: { email: 'alice@example.test', name: 'Alice', groups: ['staff'] } },
    });
    config = await discover(provider);
  });
  afterAll(() => provider?.close());

  it('listens on 127.0.0.1 and issues an ID token with email and groups after PKCE, state and nonce checks', async () => {
    expect(provider.issuer).toBe(`http://127.0.0.1:${provider.port}`);
    const tokens = await signIn(config, 'alice');
    expect(tokens.claims()).toMatchObject({
      iss: provider.issuer,
      aud: provider.client.clientId,
      sub: 'alice',
      email: 'alice@example.test',
      email_verified: true,
      name: 'Alice',
      groups: ['staff'],
    });
  });

  it('puts a changed group list in the next ID token, also for a browser still signed in at the provider', async () => {
    const jar = new CookieJar();
    provider.setUser('dora', { email: 'dora@example.test', groups: ['staff'] });
    expect((await signIn(config, 'dora', jar)).claims()?.groups).toEqual(['staff']);
    provider.setUser('dora', { email: 'dora@example.test', groups: ['staff', 'admins'] });
    expect((await signIn(config, 'dora', jar)).claims()?.groups).toEqual(['staff', 'admins']);
  });

  it('refuses a removed or disabled account at its login form, even with a live provider session', async () => {
    const jar = new CookieJar();
    provider.setUser('bob', { email: 'bob@example.test' });
    await signIn(config, 'bob', jar);
    provider.removeUser('bob');
    // The jar's provider session names bob: he is asked to sign in again, and refused.
    expect(await refusal(signIn(config, 'bob', jar))).toMatchObject({ name: 'ProviderSignInError', code: 'LOGIN_REFUSED' });
    provider.setUser('carol', { email: 'carol@example.test', disabled: true });
    expect(await refusal(signIn(config, 'carol'))).toBeInstanceOf(ProviderSignInError);
    expect(await refusal(signIn(config, 'nobody'))).toMatchObject({ code: 'LOGIN_REFUSED' });
  });

  it('refuses a code used twice with invalid_grant', async () => {
    const { url, checks } = await startAuthorization(config);
    const callback = await signInAtProvider(url, 'alice');
    await client.authorizationCodeGrant(config, callback, checks);
    const error = await refusal(client.authorizationCodeGrant(config, callback, checks));
    expect(error).toMatchObject({ name: 'ResponseBodyError', code: 'OAUTH_RESPONSE_BODY_ERROR', error: 'invalid_grant' });
  });

  it('refuses a callback whose state is not the one sent (openid-client, before any request)', async () => {
    const { url, checks } = await startAuthorization(config);
    const callback = await signInAtProvider(url, 'alice');
    const error = await refusal(client.authorizationCodeGrant(config, callback, { ...checks, expectedState: client.randomState() }));
    expect(error).toMatchObject({ code: 'OAUTH_INVALID_RESPONSE' });
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const { url, checks } = await startAuthorization(config);
    const callback = await signInAtProvider(url, 'alice');
    const error = await refusal(client.authorizationCodeGrant(config, callback, { ...checks, expectedNonce: client.randomNonce() }));
    expect(error).toMatchObject({ code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' });
  });

  it('ends the provider session through the end-session URL and its confirmation form', async () => {
    const jar = new CookieJar();
    const tokens = await signIn(config, 'alice', jar);
    const silent = async () => signInAtProvider((await startAuthorization(config, { prompt: 'none' })).url, 'alice', { cookieJar: jar });
    expect((await silent()).searchParams.has('code')).toBe(true);

    const before = provider.endSessionSeen();
    const endSession = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT_URI, state: 'bye' });
    const back = await confirmSignOutAtProvider(endSession, { cookieJar: jar });
    expect(`${back.origin}${back.pathname}`).toBe(POST_LOGOUT_URI);
    expect(back.searchParams.get('state')).toBe('bye');
    expect(provider.endSessionSeen()).toBe(before + 1);
    // The provider session is gone: a silent sign-in now comes back with login_required.
    expect((await silent()).searchParams.get('error')).toBe('login_required');
  });
});

describe('test OpenID Connect provider with short-lived codes', () => {
  let provider: TestProvider;
  afterAll(() => provider?.close());

  it('refuses an expired authorization code with invalid_grant', async () => {
    provider = await startTestProvider({ redirectUris: [REDIRECT_URI], codeTtlSeconds: 1, users: { alice: { email: 'alice@example.test' } } });
    const config = await discover(provider);
    const { url, checks } = await startAuthorization(config);
    const callback = await signInAtProvider(url, 'alice');
    // The code's expiry is whole seconds after its issue: 1.1 s is past it whatever the rounding.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const error = await refusal(client.authorizationCodeGrant(config, callback, checks));
    expect(error).toMatchObject({ code: 'OAUTH_RESPONSE_BODY_ERROR', error: 'invalid_grant' });
  });
});
