// Sessions and CSRF protection for everything under /api (the checks run in the /api scope, see
// api-access.ts, so they follow the matched route, not the spelling of the URL).
//
// Session: cookie `sealdrop_session` holds a 256-bit random token; the database keeps only its
// SHA-256 (a leaked database does not leak live sessions). CSRF: double-submit cookie `csrftoken`
// readable by the page, echoed in the `x-csrftoken` header on every mutating request; for a
// signed-in request the token must also be the one bound to the session at login, so a token
// from before login or from another session is refused. See docs/api.md.
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session, User } from '../db/repositories/index.ts';
import { ApiError } from '../errors.ts';
import { csrfTokenForSession, newToken, sha256Hex, tokensEqual } from '../auth/tokens.ts';
import { globalPlugin } from './global-plugin.ts';

export const SESSION_COOKIE = 'sealdrop_session';
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';

const COOKIE_GRACE_MS = 24 * 3_600_000;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type RequestAuth =
  | { state: 'anonymous' }
  /** A session cookie was sent but names no live session. */
  | { state: 'expired' }
  | { state: 'signed-in'; session: Session; user: User };

export interface SignedIn {
  session: Session;
  user: User;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
    /** The CSRF token this browser holds after this request (the cookie, or a new one). */
    csrfToken: string;
  }
  interface FastifyInstance {
    /**
     * Sets `request.auth` and `request.csrfToken` (issuing the csrftoken cookie when missing) and
     * refuses a mutating request without a valid CSRF header (403).
     */
    readSessionAndCheckCsrf(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * Signs the user in: ends the request's old session, creates a new one, sets both cookies.
     * `sso`: started by single sign-on, which bounds it to the shorter of the two lifetimes.
     */
    startSession(request: FastifyRequest, reply: FastifyReply, user: User, options?: { sso?: boolean }): Promise<void>;
    /** Ends the request's session (if any) and clears the session cookie; issues a fresh CSRF token. */
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

/** The signed-in user of a request to a route that is not public (api-access.ts checked it). */
export function signedIn(request: FastifyRequest): SignedIn {
  if (request.auth.state !== 'signed-in') {
    throw new ApiError(request.auth.state === 'expired' ? 'SESSION_EXPIRED' : 'NOT_AUTHENTICATED');
  }
  return { session: request.auth.session, user: request.auth.user };
}

function wellFormedToken(value: string | undefined): string | undefined {
  return value !== undefined && TOKEN_FORMAT.test(value) ? value : undefined;
}

export const sessionsPlugin = globalPlugin('sessions', async (app) => {
  await app.register(cookie);
  const { repos } = app;
  const secure = app.config.cookieSecure;
  const sessionCookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    // The server decides expiry. The cookie outlives the session by a day so that a browser
    // coming back after expiry still sends it and hears "Session expired" (the client then says
    // so) instead of a bare "Not authenticated".
    maxAge: Math.floor((app.config.sessionTtlMs + COOKIE_GRACE_MS) / 1000),
  };
  const csrfCookieOptions = { path: '/', httpOnly: false, sameSite: 'lax' as const, secure };

  function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
    request.csrfToken = token;
    reply.setCookie(CSRF_COOKIE, token, csrfCookieOptions);
  }

  async function resolveAuth(request: FastifyRequest): Promise<RequestAuth> {
    const token = request.cookies[SESSION_COOKIE];
    if (token === undefined || token === '') return { state: 'anonymous' };
    const tokenHash = sha256Hex(token);
    const session = await repos.sessions.findByTokenHash(tokenHash);
    if (!session) return { state: 'expired' };
    if (session.expiresAt <= app.now()) {
      await repos.sessions.deleteById(session.id);
      return { state: 'expired' };
    }
    const user = await repos.users.findById(session.userId);
    if (!user) return { state: 'expired' };
    // Disabling ends an account's sessions in the same transaction; a session started in the
    // moment before is refused here all the same.
    if (user.disabledAt !== null) {
      await repos.sessions.deleteForUser(user.id);
      return { state: 'expired' };
    }
    return { state: 'signed-in', session, user };
  }

  // Set for every request to an /api route (null elsewhere).
  app.decorateRequest('auth', null as never);
  app.decorateRequest('csrfToken', '');

  app.decorate('readSessionAndCheckCsrf', async (request: FastifyRequest, reply: FastifyReply) => {
    request.auth = await resolveAuth(request);

    const cookieToken = wellFormedToken(request.cookies[CSRF_COOKIE]);
    const sessionToken = request.cookies[SESSION_COOKIE];
    const boundToken =
      request.auth.state === 'signed-in' && sessionToken !== undefined ? csrfTokenForSession(sessionToken) : undefined;
    if (cookieToken !== undefined) request.csrfToken = cookieToken;
    else setCsrfCookie(request, reply, boundToken ?? newToken());

    if (!MUTATING_METHODS.has(request.method)) return;
    const header = request.headers[CSRF_HEADER];
    const valid =
      typeof header === 'string' &&
      cookieToken !== undefined &&
      tokensEqual(header, cookieToken) &&
      (boundToken === undefined || tokensEqual(header, boundToken));
    if (!valid) throw new ApiError('CSRF_FAILED');
  });

  app.decorate('startSession', async (request: FastifyRequest, reply: FastifyReply, user: User, options?: { sso?: boolean }) => {
    const now = app.now();
    // request.auth is unset on routes outside the /api scope's session check.
    if (request.auth?.state === 'signed-in') await repos.sessions.deleteById(request.auth.session.id);
    await repos.sessions.deleteExpired(now);
    const token = newToken();
    const sso = options?.sso === true;
    const ttlMs = sso && app.config.sso ? Math.min(app.config.sessionTtlMs, app.config.sso.sessionTtlMs) : app.config.sessionTtlMs;
    const session = await repos.sessions.create({
      tokenHash: sha256Hex(token),
      userId: user.id,
      expiresAt: now + ttlMs,
      now,
      sso,
      // The provider has just made the person sign in (and its own second factor, if it has one):
      // that counts as a re-authentication, the only one an account without a password can give
      // until it has a passkey (docs/api.md, "Single sign-on").
      ...(sso ? { reauthenticatedAt: now } : {}),
    });
    request.auth = { state: 'signed-in', session, user };
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions);
    setCsrfCookie(request, reply, csrfTokenForSession(token));
  });

  app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await repos.sessions.deleteByTokenHash(sha256Hex(token));
    request.auth = { state: 'anonymous' };
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    setCsrfCookie(request, reply, newToken());
  });
});
