// The address a recipient opens: {origin}/download/{link_token}. With PUBLIC_URL set the origin is
// always PUBLIC_URL, and a request that came through another Host (or X-Forwarded-Host, when the
// proxy is trusted) is refused rather than answered: a forged Host must not get an address built
// for it. Without PUBLIC_URL (one machine, no mail, no webhooks) the origin is the one the admin's
// own request came to; it is only answered to that admin, never stored for a message or webhook.
import type { FastifyRequest } from 'fastify';
import { HostNotAllowedError } from './errors.ts';

/** Whether `host` (a Host header value, maybe with a port) names the same host and port as `origin`. */
export function hostMatchesOrigin(host: string, origin: string): boolean {
  const expected = new URL(origin);
  try {
    // The URL parser lower-cases the name and drops the scheme's default port on both sides.
    return new URL(`${expected.protocol}//${host}`).host === expected.host;
  } catch {
    return false;
  }
}

export function publicOrigin(request: FastifyRequest, configured: string | null): string {
  if (configured === null) return `${request.protocol}://${request.host}`;
  if (!hostMatchesOrigin(request.host, configured)) throw new HostNotAllowedError(configured);
  return configured;
}

export function downloadLinkUrl(origin: string, linkToken: string): string {
  return `${origin}/download/${linkToken}`;
}
