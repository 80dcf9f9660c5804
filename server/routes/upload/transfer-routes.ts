// Sending files: the spec's one-request multipart upload, the resumable tus endpoint, and the
// completion call that turns finished tus uploads into file records. All three check the link's
// gates on every request (grant cookie, or for multipart the credentials in the request).
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { completeUploads } from '../../upload/complete-uploads.ts';
import { readGrantToken } from '../../upload/grant-cookie.ts';
import { receiveMultipartUpload } from '../../upload/multipart-upload.ts';
import { recordPatchActivity, tusContexts } from '../../upload/tus-server.ts';
import { isTusUploadId } from '../../upload/tus-storage.ts';
import { completeBody, multipartUploadHeaders, uploadLinkParams, uploadResultResponse } from '../../../contract/upload.ts';
import { uploadFolder } from './upload-folder.ts';

export async function transferRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { access, sizes, tus } = app.uploads;

  // Parts are consumed as streams by the handler (limits are set per request there).
  // preservePath: busboy would otherwise cut a filename at its last slash or backslash, and the spec's
  // original_raw_name_from_client is the name exactly as the client sent it; the stored name is
  // made safe by sanitizeFileName (file-names.ts), which replaces separators itself.
  await app.register(multipart, { throwFileSizeLimit: true, preservePath: true });

  // Uploads can stream for minutes. A closing app lets them run until the shutdown's cut time
  // (app.lifecycle; right away for a close without a stop signal), then cuts them: what a tus
  // PATCH has written so far stays (the client resumes from it after the restart), and a cut
  // multipart request deletes what it stored (server/lifecycle/in-flight-uploads.ts).
  const inFlight = app.lifecycle.uploads;

  /** Metrics of files that became records now (`ids`: only those), and of a multipart body's bytes. */
  function recordStored(transport: 'tus' | 'multipart', files: Array<{ id: number; size: number }>, ids: Set<number> | null, bodyBytes: number): void {
    const stored = ids === null ? files : files.filter((file) => ids.has(file.id));
    const cipherBytes = stored.reduce((sum, file) => sum + sizes.encryptedLength(file.size), 0);
    app.metrics.filesStored(transport, stored.length, cipherBytes);
    if (transport === 'multipart' && Number.isSafeInteger(bodyBytes)) app.metrics.uploadBytesReceived('multipart', bodyBytes);
  }
  app.addHook('preClose', async () => {
    const { cutAt, settleBy } = app.lifecycle.uploadDeadlines();
    const outcome = await inFlight.finishOrCut(cutAt, settleBy);
    if (outcome.finished + outcome.cut > 0) app.log.info({ uploads: outcome }, 'uploads in flight at shutdown: finished or cut');
  });

  routes.post(
    '/:link_token',
    { schema: { params: uploadLinkParams, headers: multipartUploadHeaders, response: { 200: uploadResultResponse } } },
    async (request, reply) => {
      const folder = uploadFolder(request);
      // Set when this request stored files (not for a repeated Idempotency-Key, answered from the record).
      let storedIds: Set<number> | null = null;
      const result = await inFlight.serve(request.raw, () => receiveMultipartUpload(request, folder, readGrantToken(request), {
        idempotencyKey: request.headers['idempotency-key'],
        blobs: app.blobs,
        repos: app.repos,
        access,
        sizes,
        maxFileBytes: app.config.upload.maxFileBytes,
        now: () => app.now(),
        log: request.log,
        space: app.uploads.space,
        claimTtlMs: app.config.upload.abandonAfterMs,
        onStored: (stored) => {
          storedIds = new Set(stored.fileIds);
          return app.notifications.recordUpload(request, { folderId: folder.id, ...stored });
        },
      }), { cutSettles: true });
      // Arrived after the shutdown cut the uploads: its connection is closed, nothing to answer.
      if (result === undefined) return reply;
      if (storedIds !== null) recordStored('multipart', result.successful_files, storedIds, Number(request.headers['content-length']));
      return result;
    },
  );

  routes.post(
    '/:link_token/complete',
    { schema: { params: uploadLinkParams, body: completeBody, response: { 200: uploadResultResponse } } },
    async (request) => {
      const folder = uploadFolder(request);
      const { email } = await access.authorize(folder, readGrantToken(request), request.ip);
      // Completing twice answers the same records again; only uploads still open before are new files.
      const open = new Set(
        (await app.repos.uploadSessions.findMany(request.body.uploads.map((upload) => upload.upload_id).filter(isTusUploadId))).map((session) => session.id),
      );
      const result = await completeUploads(folder, request.body.uploads, {
        repos: app.repos,
        tusStorage: app.uploads.tusStorage,
        now: () => app.now(),
      });
      const stored = result.successful_files.filter((file) => file.upload_id !== undefined && open.has(file.upload_id));
      await app.notifications.recordUpload(request, { folderId: folder.id, fileIds: stored.map((file) => file.id), uploaderEmail: email });
      recordStored('tus', stored, null, 0);
      return result;
    },
  );

  // tus: the body of a PATCH (or of a POST with creation-with-upload) is the raw byte stream that
  // @tus/server reads itself, so Fastify must leave it unread.
  await app.register(async (tusScope) => {
    tusScope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

    // Refused here, before tus reads the request, so the answer is the API's JSON {detail, code}
    // (tus answers its hooks' refusals as text/plain): a creation that declares more than the room
    // above the disk's reserve, a PATCH when there is no room at all. A PATCH that reaches the
    // reserve part-way is stopped by the store (tus-storage.ts) and keeps the bytes it wrote.
    async function refuseWithoutRoom(request: FastifyRequest): Promise<void> {
      if (request.method === 'POST') {
        const declared = Number(request.headers['upload-length']);
        if (Number.isSafeInteger(declared) && declared > 0) await app.uploads.space.ensureRoomFor(declared);
      } else if (request.method === 'PATCH') {
        await app.uploads.space.ensureRoomFor(1);
      }
    }

    async function handleTus(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const folder = uploadFolder(request);
      // OPTIONS only describes the server; every other method needs the gates passed.
      const email =
        request.method === 'OPTIONS' ? null : (await access.authorize(folder, readGrantToken(request), request.ip)).email;
      const { link_token: linkToken } = request.params as { link_token: string };
      await refuseWithoutRoom(request);
      tusContexts.set(request.raw, { folder, linkToken, uploaderEmail: email });
      reply.hijack();
      await inFlight.serve(request.raw, () => tus.handle(request.raw, reply.raw), { cutSettles: false });
      const { upload_id: uploadId } = request.params as { upload_id?: string };
      if (request.method === 'PATCH' && reply.raw.statusCode === 204 && uploadId !== undefined) {
        await recordPatchActivity(app.repos, uploadId, request.headers['content-length'], app.now()).catch((error: unknown) => {
          request.log.warn({ err: error }, 'could not record upload activity');
        });
      }
    }

    tusScope.route({ method: ['POST', 'OPTIONS'], url: '/:link_token/tus', handler: handleTus });
    tusScope.route({
      method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'],
      url: '/:link_token/tus/:upload_id',
      handler: handleTus,
    });
  });
}
