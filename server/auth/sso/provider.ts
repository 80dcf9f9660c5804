// The relying party's side of OpenID Connect (docs/api.md "Single sign-on"), through openid-client:
// discovery of the provider (cached; a failed discovery is tried again on the next sign-in), the
// authorization URL with PKCE (S256), state and nonce, the code exchange that checks all three and
// the ID token, and the provider's end-session URL. Nothing here decides who may sign in
// (admission.ts) or touches the database.
import * as oidc from 'openid-client';
import type { SsoConfig } from '../../config.ts';
import { SsoError } from './errors.ts';

/** Every call to the provider gives up after this long (openid-client's own timeout, in seconds). */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** What the browser keeps between the start and the callback (flow-cookie.ts). */
export interface SsoFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The ID token's claims the server uses. */
export interface SsoClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  groups: string[];
}

export interface SsoProvider {
  /**
   * A new flow and the provider URL the browser is sent to. `signInAgain`: a signed-in person
   * re-authenticating; the provider is asked to make them sign in again (prompt=login) rather
   * than answer from its own session.
   */
  startSignIn(options?: { signInAgain?: boolean }): Promise<{ flow: SsoFlow; url: string }>;
  /** Exchanges the code of `callbackUrl` (PKCE, state, nonce and the ID token checked): SSO_SIGN_IN_FAILED otherwise. */
  finishSignIn(callbackUrl: URL, flow: SsoFlow): Promise<SsoClaims>;
  /** The provider's end-session URL, or null when it offers none. */
  endSessionUrl(): Promise<string | null>;
}

function stringClaim(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function groupsClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function createSsoProvider(config: SsoConfig): SsoProvider {
  let discovered: Promise<oidc.Configuration> | null = null;

  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(new URL(config.issuer), config.clientId, undefined, oidc.ClientSecretBasic(config.clientSecret), {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        ...(config.allowInsecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .then((found) => {
        found.timeout = PROVIDER_TIMEOUT_SECONDS;
        return found;
      })
      .catch((error: unknown) => {
        discovered = null;
        throw new SsoError('SSO_PROVIDER_UNAVAILABLE', { cause: error });
      });
    return discovered;
  }

  return {
    async startSignIn(options = {}) {
      const found = await configuration();
      const flow: SsoFlow = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
      const url = oidc.buildAuthorizationUrl(found, {
        redirect_uri: config.redirectUri,
        scope: config.scopes,
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
        ...(options.signInAgain ? { prompt: 'login' } : {}),
      });
      return { flow, url: url.href };
    },

    async finishSignIn(callbackUrl, flow) {
      const found = await configuration();
      let tokens;
      try {
        tokens = await oidc.authorizationCodeGrant(found, callbackUrl, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        // A refused code, a forged state or nonce, a bad ID token: the same answer to the browser;
        // the cause (openid-client's code) goes to the log.
        if (error instanceof TypeError || (error instanceof Error && error.name === 'AbortError')) {
          throw new SsoError('SSO_PROVIDER_UNAVAILABLE', { cause: error });
        }
        throw new SsoError('SSO_SIGN_IN_FAILED', { cause: error });
      }
      const claims = tokens.claims();
      if (!claims) throw new SsoError('SSO_SIGN_IN_FAILED');
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: stringClaim(claims.email)?.toLowerCase() ?? null,
        emailVerified: claims.email_verified === true,
        name: stringClaim(claims.name),
        groups: groupsClaim(claims[config.groupsClaim]),
      };
    },

    async endSessionUrl() {
      const found = await configuration().catch(() => null);
      if (!found?.serverMetadata().end_session_endpoint) return null;
      return oidc.buildEndSessionUrl(found, { client_id: config.clientId, post_logout_redirect_uri: config.postLogoutRedirectUri }).href;
    },
  };
}
