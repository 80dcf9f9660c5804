// The recipient's side of a download link, mounted at /api/download/{link_token}: no account,
// the token is the capability. status lists the link's files; verify-password checks the password
// verifier (rate limited per link and IP) and returns the wrapped file keys plus a grant cookie;
// file streams one file's ciphertext (never its key). Unknown or deleted tokens answer 404,
// expired links 410 "This link has expired.", on every route; so do files past the link's download
// limit (server/download-links/download-limits.ts: status lists only what is left to fetch).
import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../../auth/passwords.ts';
import { LinkWithoutPasswordError } from '../../download-links/errors.ts';
import { countFetch, fetchableFiles, recipientOf } from '../../download-links/download-limits.ts';
import { activeLink, issueGrant, requireGrant } from '../../download-links/link-access.ts';
import { keysForFiles, linkKdfParams } from '../../download-links/link-keys.ts';
import { ApiError } from '../../errors.ts';
import { ciphertextHeaders } from '../../files/ciphertext-headers.ts';
import { sendCiphertext } from '../../files/ciphertext-response.ts';
import { FileNotFoundError } from '../../files/errors.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import {
  linkFileParams,
  linkStatusResponse,
  linkTokenParams,
  verifyLinkPasswordBody,
  verifyLinkPasswordResponse,
} from '../../../contract/download-links.ts';

export async function publicLinkRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos, blobs } = app;
  const { limiter, rules } = app.attempts;

  routes.get(
    '/:link_token/status',
    { schema: { params: linkTokenParams, response: { 200: linkStatusResponse } } },
    async (request, reply) => {
      const link = await activeLink(repos, request.params.link_token, app.now());
      const recipient = recipientOf(request, reply, link, { secure: app.config.cookieSecure });
      const files = await fetchableFiles(repos, link, recipient);
      const kdfParams = link.reencryptedKeysJson === null ? null : linkKdfParams(link.reencryptedKeysJson);
      return {
        requires_password: link.verifierHash !== null,
        files: files.map((file) => ({
          id: file.id,
          original_filename: file.originalFilename,
          file_size: file.fileSize,
          encryption_iv: file.encryptionIv,
        })),
        ...(kdfParams === null ? {} : { kdf_params: kdfParams }),
      };
    },
  );

  routes.post(
    '/:link_token/verify-password',
    { schema: { params: linkTokenParams, body: verifyLinkPasswordBody, response: { 200: verifyLinkPasswordResponse } } },
    async (request, reply) => {
      const now = app.now();
      const link = await activeLink(repos, request.params.link_token, now);
      if (link.verifierHash === null || link.reencryptedKeysJson === null) throw new LinkWithoutPasswordError();
      const attempt = await limiter.reserve(rules.downloadLinkPassword(link.id, request.ip));
      if (!(await verifyPassword(link.verifierHash, request.body.password))) throw new ApiError('INCORRECT_PASSWORD');
      await attempt.succeeded();
      const files = await repos.downloadLinks.listFiles(link.id);
      await issueGrant(repos, reply, link, { now, secure: app.config.cookieSecure });
      return { reencrypted_keys: keysForFiles(link.reencryptedKeysJson, files.map((file) => file.id)) };
    },
  );

  // GET only: an automatic HEAD route would read the whole blob just to discard it.
  routes.get(
    '/:link_token/file/:fileId',
    { exposeHeadRoute: false, schema: { params: linkFileParams } },
    async (request, reply) => {
      const now = app.now();
      const link = await activeLink(repos, request.params.link_token, now);
      await requireGrant(repos, request, link, now);
      const file = await repos.files.findInLink(link.id, request.params.fileId);
      if (!file) throw new FileNotFoundError();
      const counted = await countFetch(repos, link, file.id, recipientOf(request, reply, link, { secure: app.config.cookieSecure }), now);
      if (counted) {
        await app.activity.record(link.ownerId, 'link.downloaded', {
          folderId: link.folderId,
          ip: request.ip,
          details: { link_id: link.id, file_id: file.id, name: file.originalFilename },
        });
        await app.webhooks.emit(link.ownerId, 'link.downloaded', { link_id: link.id, folder_id: link.folderId, file_id: file.id });
      }
      return sendCiphertext(request, reply, blobs, {
        blobKey: file.blobKey,
        filename: file.originalFilename,
        headers: ciphertextHeaders(file),
      });
    },
  );
}
