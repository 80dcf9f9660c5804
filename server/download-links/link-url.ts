// The address a recipient opens: {origin}/download/{link_token}. The origin is PUBLIC_URL when it
// is configured (behind a proxy that rewrites Host, or to pin the published name), else the
// origin the admin's request came to.
import type { FastifyRequest } from 'fastify';

export function publicOrigin(request: FastifyRequest, configured: string | null): string {
  return configured ?? `${request.protocol}://${request.host}`;
}

export function downloadLinkUrl(origin: string, linkToken: string): string {
  return `${origin}/download/${linkToken}`;
}
