// What one browser keeps between starting a single sign-on and the provider's callback: the state,
// nonce and PKCE verifier, in an HttpOnly cookie scoped to the callback's path. Kept in the
// browser, not the database, so the flow is bound to the browser that started it (a callback
// carried to another browser finds no flow: SSO_FLOW_INVALID) and nothing about it is stored.
// SameSite=Lax: the callback is a top-level navigation from the provider's site, which Lax lets
// the cookie ride along on.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appPath } from '../../../contract/sso.ts';
import type { SsoFlow } from './provider.ts';

export const SSO_FLOW_COOKIE = 'sealdrop_sso_flow';
const FLOW_PATH = '/api/auth/sso';
/** Time to sign in at the provider; a flow older than this is refused. */
export const FLOW_TTL_MS = 10 * 60_000;

interface StoredFlow extends SsoFlow {
  expiresAt: number;
  /** Where the app goes once /sso has unlocked the key (an app path, appPath()), or null. */
  next?: string | null;
}

/** The flow a callback finds: the provider's secrets and where to go afterwards. */
export interface TakenFlow extends SsoFlow {
  next: string | null;
}

export function setFlowCookie(reply: FastifyReply, flow: SsoFlow, now: number, secure: boolean, next: string | null = null): void {
  const stored: StoredFlow = { ...flow, expiresAt: now + FLOW_TTL_MS, next };
  reply.setCookie(SSO_FLOW_COOKIE, Buffer.from(JSON.stringify(stored)).toString('base64url'), {
    path: FLOW_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: FLOW_TTL_MS / 1000,
  });
}

/** The flow this browser started, once: the cookie is cleared whatever the callback's outcome. */
export function takeFlowCookie(request: FastifyRequest, reply: FastifyReply, now: number): TakenFlow | null {
  const value = request.cookies[SSO_FLOW_COOKIE];
  reply.clearCookie(SSO_FLOW_COOKIE, { path: FLOW_PATH });
  if (value === undefined || value.length > 2000) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<StoredFlow>;
    const { state, nonce, codeVerifier, expiresAt, next } = parsed;
    if (typeof state !== 'string' || typeof nonce !== 'string' || typeof codeVerifier !== 'string' || typeof expiresAt !== 'number') return null;
    if (expiresAt <= now) return null;
    // The cookie is not signed: a `next` is checked again as it comes back.
    return { state, nonce, codeVerifier, next: typeof next === 'string' ? appPath(next) : null };
  } catch {
    return null;
  }
}
