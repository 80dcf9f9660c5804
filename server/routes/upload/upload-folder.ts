// Every upload route first opens its link (onRequest, before the body is read or validated), so
// an unknown, inactive or expired link gets the same 404 on every route, whatever was sent.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UploadLinkFolder } from '../../db/repositories/index.ts';
import { UploadError } from '../../upload/errors.ts';
import { openUploadLink } from '../../upload/link-access.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The folder behind the request's upload link (set for every /api/upload route). */
    uploadFolderValue: UploadLinkFolder | null;
  }
}

export function openLinkOnRequest(app: FastifyInstance): void {
  app.decorateRequest('uploadFolderValue', null);
  app.addHook('onRequest', async (request) => {
    const { link_token: linkToken } = request.params as { link_token?: string };
    if (linkToken === undefined) throw new UploadError('LINK_INVALID');
    request.uploadFolderValue = await openUploadLink(app.repos, linkToken, app.now());
  });
}

export function uploadFolder(request: FastifyRequest): UploadLinkFolder {
  if (!request.uploadFolderValue) throw new UploadError('LINK_INVALID');
  return request.uploadFolderValue;
}
