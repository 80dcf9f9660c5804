// A test server with single sign-on and its OpenID provider on loopback (tests/support/oidc-provider.ts),
// set up as the SSO suites need it: the server first, on its own PUBLIC_URL, so that the provider can
// be told the real callback address (the server discovers the provider at the first sign-in).
import { expect } from 'vitest';
import { signInAtProvider } from '../support/oidc-login.ts';
import { startTestProvider, type TestAccount, type TestProvider } from '../support/oidc-provider.ts';
import { freeLoopbackPort, startServer, type TestServer } from './harness.ts';
import type { TestClient, TestResponse } from './http-client.ts';

export interface SsoServerOptions {
  users: Record<string, TestAccount>;
  /** Settings beside the provider's (OIDC_ADMIN_GROUP, PASSWORD_SIGN_IN, ...). */
  env?: Record<string, string>;
  /** 'localhost' for passkeys, which take no IP address as relying party. */
  host?: '127.0.0.1' | 'localhost';
  codeTtlSeconds?: number;
}

export interface SsoServer {
  server: TestServer;
  provider: TestProvider;
  publicUrl: string;
  /** GET /api/auth/sso/start (with `next` when given): the answer, whose location is the provider. */
  start(client: TestClient, next?: string): Promise<TestResponse>;
  /** A whole sign-in of `client` as `login`; where the callback sent the browser. */
  signIn(client: TestClient, login: string, next?: string): Promise<string>;
  close(): Promise<void>;
}

const SSO_CLIENT = { id: 'sealdrop-test', secret: 'test-secret-for-sso' } as const;

export async function startSsoServer({ users, env = {}, host = '127.0.0.1', codeTtlSeconds }: SsoServerOptions): Promise<SsoServer> {
  const providerPort = await freeLoopbackPort();
  const server = await startServer({
    ownPublicUrl: host === 'localhost' ? 'localhost' : true,
    env: {
      OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      OIDC_CLIENT_ID: SSO_CLIENT.id,
      OIDC_CLIENT_SECRET: SSO_CLIENT.secret,
      OIDC_NAME: 'Example Staff',
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_ALLOWED_GROUPS: 'staff',
      ...env,
    },
  });
  const publicUrl = server.env.PUBLIC_URL!;
  let provider: TestProvider;
  try {
    provider = await startTestProvider({
      port: providerPort,
      clientId: SSO_CLIENT.id,
      clientSecret: SSO_CLIENT.secret,
      redirectUris: [`${publicUrl}/api/auth/sso/callback`],
      postLogoutRedirectUris: [`${publicUrl}/login`],
      codeTtlSeconds,
      users,
    });
  } catch (error) {
    await server.close();
    throw error;
  }
  const start = (client: TestClient, next?: string) =>
    client.get(next === undefined ? '/api/auth/sso/start' : `/api/auth/sso/start?next=${encodeURIComponent(next)}`);
  return {
    server,
    provider,
    publicUrl,
    start,
    async signIn(client, login, next) {
      const started = await start(client, next);
      expect(started.status).toBe(303);
      const back = await signInAtProvider(started.headers.get('location')!, login);
      const answer = await client.get(`/api/auth/sso/callback${back.search}`);
      expect(answer.status).toBe(303);
      return answer.headers.get('location')!;
    },
    async close() {
      await server.close();
      await provider.close();
    },
  };
}
