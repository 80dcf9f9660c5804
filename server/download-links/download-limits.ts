// Download limits of a link (docs/api.md, "Download limits"). A link may allow each file to be
// fetched at most `maxDownloads` times. What counts is a recipient, not a request: the first file
// request of a browser gets a random recipient token in an HttpOnly cookie scoped to the link, and
// a file is counted once per recipient, so ranged, resumed and retried fetches by the same browser
// cost nothing more. A request without the cookie is a new recipient. A file past its limit, and a
// link whose every file is, answers like an expired link, except to a recipient already counted
// for that file (who may be resuming).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newToken, sha256Hex } from '../auth/tokens.ts';
import type { DownloadLink, LinkedFile, Repositories } from '../db/repositories/index.ts';
import { LinkExpiredError } from './errors.ts';

export const RECIPIENT_COOKIE = 'sealdrop_link_recipient';
/** How long a browser stays the same recipient of a link (resuming within it costs nothing). */
export const RECIPIENT_MAX_AGE_MS = 7 * 24 * 3_600_000;
// Tokens we issue are 43 characters; a longer cookie is not ours.
const MAX_RECIPIENT_TOKEN_LENGTH = 128;

/** The hash of the request's recipient token; a request without one gets a new token (set on the reply). */
export function recipientOf(request: FastifyRequest, reply: FastifyReply, link: DownloadLink, options: { secure: boolean }): string {
  const presented = request.cookies[RECIPIENT_COOKIE];
  if (presented !== undefined && presented !== '' && presented.length <= MAX_RECIPIENT_TOKEN_LENGTH) return sha256Hex(presented);
  const token = newToken();
  reply.setCookie(RECIPIENT_COOKIE, token, {
    path: `/api/download/${link.linkToken}`,
    httpOnly: true,
    sameSite: 'strict',
    secure: options.secure,
    maxAge: RECIPIENT_MAX_AGE_MS / 1000,
  });
  return sha256Hex(token);
}

/** The link's files this recipient may still fetch; LinkExpiredError when none is left. */
export async function fetchableFiles(repos: Repositories, link: DownloadLink, recipientHash: string): Promise<LinkedFile[]> {
  const files = await repos.downloadLinks.listFiles(link.id);
  const limit = link.maxDownloads;
  if (limit === null) return files;
  const fetched = await repos.downloadLinks.fetchedBy(link.id, recipientHash);
  const left = files.filter((file) => file.downloadCount < limit || fetched.has(file.id));
  if (left.length === 0 && files.length > 0) throw new LinkExpiredError();
  return left;
}

/**
 * Counts this recipient's fetch of the file (once); LinkExpiredError when the file is used up.
 * True when this request was counted (a new recipient of the file), false for a repeat.
 */
export async function countFetch(repos: Repositories, link: DownloadLink, fileId: number, recipientHash: string, now: number): Promise<boolean> {
  const claim = await repos.downloadLinks.claimFetch({ linkId: link.id, fileId, recipientHash, maxDownloads: link.maxDownloads, now });
  if (claim === 'exhausted') throw new LinkExpiredError();
  return claim === 'counted';
}
