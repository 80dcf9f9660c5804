// The recipient's side of a download link, mounted at /api/download/{link_token}: no account,
// the token is the capability. status lists the link's files; verify-password checks the password
// verifier (rate limited per link and IP) and returns the wrapped file keys plus a grant cookie;
// file streams one file's ciphertext (never its key). Every route first decides whether the link
// is alive, before any password or grant is looked at: unknown or deleted tokens answer 404,
// expired links 410 "This link has expired.", and so do links whose every file is past its
// download limit (server/download-links/download-limits.ts: status lists only what is left).
// A request without the recipient cookie is a new recipient: rate limited per IP and per link.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DownloadLink } from '../../db/repositories/index.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { LinkExpiredError, LinkWithoutPasswordError } from '../../download-links/errors.ts';
import { fetchableFiles } from '../../download-links/download-limits.ts';
import { activeLink, issueGrant, requireGrant } from '../../download-links/link-access.ts';
import { mintRecipient, presentedRecipient } from '../../download-links/recipients.ts';
import { priorReceipt, receiptMeter } from '../../download-links/whole-receipt.ts';
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

  let recipientKey: Promise<string> | undefined;
  const signingKey = (): Promise<string> =>
    (recipientKey ??= repos.serverSecrets.get('link-recipient').catch((error: unknown) => {
      recipientKey = undefined;
      throw error;
    }));

  /** The live link, the request's recipient (null: none the server issued) and the files left to it. */
  async function liveLink(request: FastifyRequest<{ Params: { link_token: string } }>, now: number) {
    const link = await activeLink(repos, request.params.link_token, now);
    const key = await signingKey();
    const recipient = presentedRecipient(request, link, key);
    const files = await fetchableFiles(repos, link, recipient);
    return { link, key, recipient, files };
  }

  /** A new recipient, counted against the per-IP and per-link budgets (429 when one is spent). */
  async function newRecipient(request: FastifyRequest, reply: FastifyReply, link: DownloadLink, key: string): Promise<string> {
    await limiter.reserve(rules.downloadLinkRecipient(link.id, request.ip));
    return mintRecipient(reply, link, key, { secure: app.config.cookieSecure });
  }

  routes.get(
    '/:link_token/status',
    { schema: { params: linkTokenParams, response: { 200: linkStatusResponse } } },
    async (request, reply) => {
      const { link, key, recipient, files } = await liveLink(request, app.now());
      if (recipient === null) await newRecipient(request, reply, link, key);
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
      const { link, files } = await liveLink(request, now);
      if (link.verifierHash === null || link.reencryptedKeysJson === null) throw new LinkWithoutPasswordError();
      const attempt = await limiter.reserve(rules.downloadLinkPassword(link.id, request.ip));
      if (!(await verifyPassword(link.verifierHash, request.body.password))) throw new ApiError('INCORRECT_PASSWORD');
      await attempt.succeeded();
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
      const { link, key, recipient: presented, files } = await liveLink(request, now);
      await requireGrant(repos, request, link, now);
      const file = await repos.files.findInLink(link.id, request.params.fileId);
      if (!file) throw new FileNotFoundError();
      // In the link but past its limit for this recipient.
      if (!files.some((left) => left.id === file.id)) throw new LinkExpiredError();
      const recipient = presented ?? (await newRecipient(request, reply, link, key));
      const prior = await priorReceipt(repos, link.id, file.id, recipient);
      const meter =
        prior === null
          ? undefined
          : receiptMeter({
              repos,
              link,
              fileId: file.id,
              recipientHash: recipient,
              prior,
              now: app.now,
              background: app.background,
              onError: (error) => request.log.error({ err: error }, 'counting a link download failed'),
              onCounted: async () => {
                await app.activity.record(link.ownerId, 'link.downloaded', {
                  folderId: link.folderId,
                  ip: request.ip,
                  details: { link_id: link.id, file_id: file.id, name: file.originalFilename },
                });
                await app.webhooks.emit(link.ownerId, 'link.downloaded', { link_id: link.id, folder_id: link.folderId, file_id: file.id });
              },
            });
      return sendCiphertext(request, reply, blobs, {
        blobKey: file.blobKey,
        filename: file.originalFilename,
        headers: ciphertextHeaders(file),
        ...(meter ? { meter } : {}),
      });
    },
  );
}
