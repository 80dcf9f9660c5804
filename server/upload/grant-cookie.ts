// The upload grant cookie: HttpOnly (page scripts never see it), SameSite=Strict, and scoped to
// the one upload link's API path, so a browser holding grants for several links sends each only
// where it belongs.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const GRANT_COOKIE = 'sealdrop_upload_grant';

export function grantCookiePath(linkToken: string): string {
  return `/api/upload/${linkToken}`;
}

export function readGrantToken(request: FastifyRequest): string | undefined {
  const value = request.cookies[GRANT_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

export function setGrantCookie(
  reply: FastifyReply,
  linkToken: string,
  token: string,
  options: { secure: boolean; maxAgeMs: number },
): void {
  reply.setCookie(GRANT_COOKIE, token, {
    path: grantCookiePath(linkToken),
    httpOnly: true,
    sameSite: 'strict',
    secure: options.secure,
    maxAge: Math.floor(options.maxAgeMs / 1000),
  });
}
