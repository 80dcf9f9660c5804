// The folder's side of download links, mounted at /api/download/links: create a link for files of
// one folder, list a folder's active links (any member), delete a link (managers and the owner
// create and delete). A link belongs to its folder's owner whoever made it; a folder, file or link
// the account is not a member of answers 404 exactly like a missing one, a reader's change 403.
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../auth/passwords.ts';
import { newToken } from '../../auth/tokens.ts';
import type { DownloadLinkWithFiles } from '../../db/repositories/index.ts';
import { LinkNotFoundError } from '../../download-links/errors.ts';
import { isLinkTokenShaped } from '../../download-links/link-access.ts';
import { downloadLinkUrl, publicOrigin } from '../../download-links/link-url.ts';
import { RequestValidationError } from '../../errors.ts';
import { FileNotFoundError } from '../../files/errors.ts';
import { FolderRoleRequiredError } from '../../folders/errors.ts';
import { recordFolderActivity } from '../../folders/folder-activity.ts';
import { hasFolderRole, requireFolderRole } from '../../folders/folder-access.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import {
  CREATE_LINK_BODY_LIMIT,
  createLinkResponse,
  linkFolderIdParams,
  linkIdParams,
  linkListResponse,
} from '../../../contract/download-links.ts';
import { createLinkBody } from './schemas.ts';

const iso = (time: number | null): string | null => (time === null ? null : new Date(time).toISOString());

function toLinkSummary(link: DownloadLinkWithFiles) {
  return {
    link_token: link.linkToken,
    creation_date: new Date(link.creationDate).toISOString(),
    expiration_date: iso(link.expirationDate),
    has_password: link.verifierHash !== null,
    file_count: link.files.length,
    files: link.files.map((file) => file.originalFilename),
    max_downloads: link.maxDownloads,
    file_downloads: link.files.map((file) => ({
      file_id: file.id,
      download_count: file.downloadCount,
      last_download_at: iso(file.lastDownloadAt),
    })),
  };
}

export async function adminLinkRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  routes.post(
    '/',
    { bodyLimit: CREATE_LINK_BODY_LIMIT, schema: { body: createLinkBody, response: { 201: createLinkResponse } } },
    async (request, reply) => {
      const { user } = signedIn(request);
      const body = request.body;
      const now = app.now();
      if (body.expiration_date !== null && body.expiration_date <= now) {
        throw new RequestValidationError([{ loc: ['body', 'expiration_date'], msg: 'The expiration date must be in the future.' }]);
      }
      const files = await repos.files.listByIds(body.file_ids);
      if (files.length !== body.file_ids.length) throw new FileNotFoundError();
      const folderIds = new Set(files.map((file) => file.folderId));
      const visible = await Promise.all([...folderIds].map((id) => repos.folders.findForAccount(user.id, id)));
      if (visible.some((folder) => folder === undefined)) throw new FileNotFoundError();
      const [folderId] = folderIds;
      if (folderIds.size !== 1 || folderId === undefined) {
        throw new RequestValidationError([{ loc: ['body', 'file_ids'], msg: 'All files of a link must be in the same folder.' }]);
      }
      const folder = await requireFolderRole(repos, user.id, folderId, 'manager');
      const link = await repos.downloadLinks.create({
        linkToken: newToken(),
        folderId,
        ownerId: folder.ownerId,
        verifierHash: body.password === null ? null : await hashPassword(body.password),
        reencryptedKeysJson: body.keys === null ? null : JSON.stringify(body.keys),
        expirationDate: body.expiration_date,
        creationDate: now,
        maxDownloads: body.max_downloads,
        fileIds: body.file_ids,
      });
      await recordFolderActivity(app, user, folder, 'link.created', {
        ip: request.ip,
        details: { link_id: link.id, files: body.file_ids.length, has_password: link.verifierHash !== null, max_downloads: link.maxDownloads },
      });
      await app.webhooks.emit(folder.ownerId, 'link.created', {
        link_id: link.id,
        folder_id: folderId,
        file_ids: body.file_ids,
        has_password: link.verifierHash !== null,
        expiration_date: iso(link.expirationDate),
        max_downloads: link.maxDownloads,
      });
      return reply.code(201).send({
        link_token: link.linkToken,
        full_url: downloadLinkUrl(publicOrigin(request, app.config.publicUrl), link.linkToken),
        has_password: link.verifierHash !== null,
        expiration_date: iso(link.expirationDate),
        max_downloads: link.maxDownloads,
      });
    },
  );

  routes.get(
    '/folder/:folderId',
    { schema: { params: linkFolderIdParams, response: { 200: linkListResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const folder = await requireFolderRole(repos, user.id, request.params.folderId, 'reader');
      const links = await repos.downloadLinks.listActiveForFolder(folder.ownerId, folder.id, app.now());
      return links.map(toLinkSummary);
    },
  );

  routes.delete('/:id', { schema: { params: linkIdParams } }, async (request, reply) => {
    const { user } = signedIn(request);
    const { id } = request.params;
    const link = isLinkTokenShaped(id) ? await repos.downloadLinks.findByToken(id) : undefined;
    const folder = link && (await repos.folders.findForAccount(user.id, link.folderId));
    if (!link || !folder) throw new LinkNotFoundError();
    if (!hasFolderRole(folder.myRole, 'manager')) throw new FolderRoleRequiredError('manager');
    if (!(await repos.downloadLinks.deleteOwned(folder.ownerId, id))) throw new LinkNotFoundError();
    await recordFolderActivity(app, user, folder, 'link.deleted', { ip: request.ip, details: { link_id: link.id } });
    return reply.code(204).send();
  });
}
