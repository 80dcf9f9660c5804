// Who a link's recipient is: a browser holding the recipient cookie the server issued for this
// link. The cookie is a random token signed with the server's `link-recipient` key (HMAC-SHA256
// over the link id and the token), so a token the server never issued is no recipient: every new
// recipient goes through `mintRecipient`, which the routes rate-limit per client IP and per link.
// Without the signature, a client could invent a fresh cookie per request and be a new recipient
// each time without ever being counted as one.
import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newToken, sha256Hex, tokensEqual } from '../auth/tokens.ts';
import type { DownloadLink } from '../db/repositories/index.ts';

export const RECIPIENT_COOKIE = 'sealdrop_link_recipient';
/** How long a browser stays the same recipient of a link (resuming within it costs nothing). */
export const RECIPIENT_MAX_AGE_MS = 7 * 24 * 3_600_000;
// Tokens we issue are 43 + 1 + 43 characters; a longer cookie is not ours.
const MAX_RECIPIENT_TOKEN_LENGTH = 128;

function signature(key: string, link: DownloadLink, token: string): string {
  return createHmac('sha256', key).update(`${link.id}:${token}`).digest('base64url');
}

/** The hash of the request's recipient token when the server issued it for this link; else null. */
export function presentedRecipient(request: FastifyRequest, link: DownloadLink, key: string): string | null {
  const presented = request.cookies[RECIPIENT_COOKIE];
  if (presented === undefined || presented.length > MAX_RECIPIENT_TOKEN_LENGTH) return null;
  const [token, signed, ...rest] = presented.split('.');
  if (token === undefined || signed === undefined || rest.length > 0 || token === '') return null;
  if (!tokensEqual(signed, signature(key, link, token))) return null;
  return sha256Hex(presented);
}

/** A new recipient: sets its cookie on the reply and returns its hash. */
export function mintRecipient(reply: FastifyReply, link: DownloadLink, key: string, options: { secure: boolean }): string {
  const token = newToken();
  const cookie = `${token}.${signature(key, link, token)}`;
  reply.setCookie(RECIPIENT_COOKIE, cookie, {
    path: `/api/download/${link.linkToken}`,
    httpOnly: true,
    sameSite: 'strict',
    secure: options.secure,
    maxAge: RECIPIENT_MAX_AGE_MS / 1000,
  });
  return sha256Hex(cookie);
}
