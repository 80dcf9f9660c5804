// Who may use a download link. Every public route first resolves the token to a live link
// (unknown or deleted: 404; expired: 410). A password-protected link additionally hands out a
// grant after a correct password: a random token in an HttpOnly, SameSite=Strict cookie scoped to
// the link's API path, stored hashed, living as long as the link or 24 hours. The file route
// requires it, so the ciphertext of a password link is served only to a browser that proved the
// password (the keys could not open it without the password anyway; this keeps the ciphertext
// itself from anyone who merely learnt the URL).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newToken, sha256Hex } from '../auth/tokens.ts';
import type { DownloadLink, Repositories } from '../db/repositories/index.ts';
import { LinkExpiredError, LinkNotFoundError, LinkPasswordRequiredError } from './errors.ts';

export const GRANT_COOKIE = 'sealdrop_link_grant';
export const GRANT_MAX_AGE_MS = 24 * 3_600_000;
// Tokens we issue are 43 characters; anything much longer is not worth a database lookup.
const MAX_TOKEN_LENGTH = 128;
// Link tokens are base64url. Anything else names no link, and must not reach a query: the router
// decodes %00 into the parameter, and PostgreSQL refuses a NUL in text (a 500, not a 404).
const LINK_TOKEN = /^[A-Za-z0-9_-]+$/;

/** Whether `value` could be a link token at all (worth a database lookup). */
export function isLinkTokenShaped(value: string): boolean {
  return value.length <= MAX_TOKEN_LENGTH && LINK_TOKEN.test(value);
}

export function isExpired(link: DownloadLink, now: number): boolean {
  return link.expirationDate !== null && link.expirationDate <= now;
}

/** The live link behind `linkToken`, or LinkNotFoundError / LinkExpiredError. */
export async function activeLink(repos: Repositories, linkToken: string, now: number): Promise<DownloadLink> {
  if (!isLinkTokenShaped(linkToken)) throw new LinkNotFoundError();
  const link = await repos.downloadLinks.findByToken(linkToken);
  if (!link) throw new LinkNotFoundError();
  if (isExpired(link, now)) throw new LinkExpiredError();
  return link;
}

function grantPath(link: DownloadLink): string {
  return `/api/download/${link.linkToken}`;
}

/** Records a passed password check and sets the grant cookie on the reply. */
export async function issueGrant(
  repos: Repositories,
  reply: FastifyReply,
  link: DownloadLink,
  options: { now: number; secure: boolean },
): Promise<void> {
  const token = newToken();
  const expiresAt = Math.min(options.now + GRANT_MAX_AGE_MS, link.expirationDate ?? Number.POSITIVE_INFINITY);
  await repos.downloadLinkGrants.create({ tokenHash: sha256Hex(token), linkId: link.id, expiresAt, now: options.now });
  reply.setCookie(GRANT_COOKIE, token, {
    path: grantPath(link),
    httpOnly: true,
    sameSite: 'strict',
    secure: options.secure,
    maxAge: Math.max(1, Math.floor((expiresAt - options.now) / 1000)),
  });
}

/** Passes for a link without password; for a password link, only with a live grant for it. */
export async function requireGrant(repos: Repositories, request: FastifyRequest, link: DownloadLink, now: number): Promise<void> {
  if (link.verifierHash === null) return;
  const token = request.cookies[GRANT_COOKIE];
  if (token === undefined || token === '' || token.length > MAX_TOKEN_LENGTH) throw new LinkPasswordRequiredError();
  if (!(await repos.downloadLinkGrants.isValid(sha256Hex(token), link.id, now))) throw new LinkPasswordRequiredError();
}
