// The upload page's steps before sending files: link status, link password, e-mail code, and the
// recipient's public key. Passing a gate sets (or extends) the upload grant cookie.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { UploadError } from '../../upload/errors.ts';
import { allowedEmailList, requiresPassword } from '../../upload/gates.ts';
import { readGrantToken, setGrantCookie } from '../../upload/grant-cookie.ts';
import type { GrantUpdate } from '../../upload/upload-access.ts';
import { messageResponse, verifiedResponse } from '../../../contract/common.ts';
import { uploadPublicKeyResponse } from '../../../contract/team-folders.ts';
import { uploadLinkParams, uploadLinkStatusResponse, verifyUploadPasswordBody } from '../../../contract/upload.ts';
import { requestLanguage } from '../../i18n/intl.ts';
import { requestCodeBody, verifyCodeBody } from './schemas.ts';
import { uploadFolder } from './upload-folder.ts';

export async function gateRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { access } = app.uploads;

  // Set every time a gate is passed, so the cookie lives as long as the renewed grant.
  function keepGrant(reply: FastifyReply, linkToken: string, update: GrantUpdate): void {
    setGrantCookie(reply, linkToken, update.token, {
      secure: app.config.cookieSecure,
      maxAgeMs: app.config.upload.grantTtlMs,
    });
  }

  routes.get(
    '/:link_token/status',
    { schema: { params: uploadLinkParams, response: { 200: uploadLinkStatusResponse } } },
    async (request) => {
      const folder = uploadFolder(request);
      return {
        title: folder.title,
        description: folder.description,
        requires_password: requiresPassword(folder),
        requires_email: folder.requireEmailVerification,
        has_allowed_emails_list: allowedEmailList(folder) !== null,
        perform_mime_check: folder.performMimeCheck,
        upload_abandon_hours: app.config.upload.abandonAfterMs / 3_600_000,
      };
    },
  );

  routes.post(
    '/:link_token/verify-password',
    { schema: { params: uploadLinkParams, body: verifyUploadPasswordBody, response: { 200: verifiedResponse } } },
    async (request, reply) => {
      const folder = uploadFolder(request);
      const update = await access.verifyPassword(folder, readGrantToken(request), request.body.link_password, request.ip);
      keepGrant(reply, request.params.link_token, update);
      return { verified: true as const };
    },
  );

  routes.post(
    '/:link_token/request-code',
    { schema: { params: uploadLinkParams, body: requestCodeBody, response: { 200: messageResponse } } },
    async (request) => {
      const folder = uploadFolder(request);
      const email = request.body.uploader_email;
      await access.requestCode(folder, readGrantToken(request), email, request.ip, requestLanguage(request.headers['accept-language']));
      return { message: `Verification code sent to ${email}.` };
    },
  );

  routes.post(
    '/:link_token/verify-code',
    { schema: { params: uploadLinkParams, body: verifyCodeBody, response: { 200: verifiedResponse } } },
    async (request, reply) => {
      const folder = uploadFolder(request);
      const { uploader_email: email, verification_code: code } = request.body;
      const update = await access.verifyCode(folder, readGrantToken(request), email, code, request.ip);
      keepGrant(reply, request.params.link_token, update);
      return { verified: true as const };
    },
  );

  routes.get(
    '/:link_token/public-key',
    { schema: { params: uploadLinkParams, response: { 200: uploadPublicKeyResponse } } },
    async (request) => {
      const folder = uploadFolder(request);
      // A team folder's uploads seal to its current epoch; a personal folder's to its owner's key.
      const epoch = await app.repos.teamFolders.currentEpoch(folder.id);
      if (epoch) return { public_key_spki: epoch.publicKeySpki, key_epoch: epoch.epoch };
      const owner = await app.repos.users.findById(folder.ownerId);
      if (!owner?.publicKeySpki) throw new UploadError('PUBLIC_KEY_MISSING');
      return { public_key_spki: owner.publicKeySpki, key_epoch: null };
    },
  );
}
