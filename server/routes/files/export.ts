// GET /api/folders/{id}/export: a folder of the signed-in account (any member), or some of its files, as an export
// ZIP (docs/format.md, "Exports"): the stored ciphertext and a manifest, streamed from the blob
// store. Nothing is decrypted and no key is needed; the browser's download manager saves it.
import type { FastifyInstance } from 'fastify';
import { planExport, selectExportFiles } from '../../export/export-plan.ts';
import { loadExportTeam } from '../../export/export-team.ts';
import { createExportZip } from '../../export/zip-export.ts';
import { requireFolderRole } from '../../folders/folder-access.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { attachmentDisposition } from '../../../contract/content-disposition.ts';
import { exportQuery } from '../../../contract/files.ts';
import { folderIdParams } from '../../../contract/folders.ts';

/** '<folder title>-export.zip', path separators replaced (the browser would do it less readably). */
export function exportZipName(folderTitle: string): string {
  return `${folderTitle.replace(/[/\\]/g, '_')}-export.zip`;
}

export async function exportRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos, blobs } = app;

  // GET only: an automatic HEAD route would build the whole ZIP just to discard it.
  routes.get(
    '/:id/export',
    { exposeHeadRoute: false, schema: { params: folderIdParams, querystring: exportQuery } },
    async (request, reply) => {
      const { user } = signedIn(request);
      const folder = await requireFolderRole(repos, user.id, request.params.id, 'reader');
      const files = selectExportFiles(await repos.files.listForFolder(folder.id), request.query.file_ids);
      const plan = await planExport(blobs, folder, files, app.now(), await loadExportTeam(repos, folder.id));
      const zip = await createExportZip(plan, blobs);
      zip.stream.once('error', (error) => request.log.error({ err: error }, 'export ZIP failed while streaming'));
      reply
        .header('content-type', 'application/zip')
        .header('content-disposition', attachmentDisposition(exportZipName(folder.title)))
        .header('cache-control', 'no-store');
      if (zip.size >= 0) reply.header('content-length', String(zip.size));
      return reply.send(zip.stream);
    },
  );
}
