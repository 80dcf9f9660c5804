// Sending files: the spec's one-request multipart upload, the resumable tus endpoint, and the
// completion call that turns finished tus uploads into file records. All three check the link's
// gates on every request (grant cookie, or for multipart the credentials in the request).
import type { IncomingMessage } from 'node:http';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { completeUploads } from '../../upload/complete-uploads.ts';
import { readGrantToken } from '../../upload/grant-cookie.ts';
import { receiveMultipartUpload } from '../../upload/multipart-upload.ts';
import { tusContexts } from '../../upload/tus-server.ts';
import { completeBody, uploadLinkParams, uploadResultResponse } from '../../../contract/upload.ts';
import { uploadFolder } from './upload-folder.ts';

export async function transferRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { access, sizes, tus } = app.uploads;

  // Parts are consumed as streams by the handler (limits are set per request there).
  // preservePath: busboy would otherwise cut a filename at its last slash or backslash, and the spec's
  // original_raw_name_from_client is the name exactly as the client sent it; the stored name is
  // made safe by sanitizeFileName (file-names.ts), which replaces separators itself.
  await app.register(multipart, { throwFileSizeLimit: true, preservePath: true });

  // Uploads can stream for minutes. On shutdown they are cut off instead of waited for: what a
  // tus PATCH has written so far stays (the client resumes from it after the restart), and a cut
  // multipart request deletes what it stored. Without this, closing would wait for every upload.
  const inFlight = new Set<IncomingMessage>();
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'POST' && request.method !== 'PATCH') return;
    inFlight.add(request.raw);
    reply.raw.once('close', () => inFlight.delete(request.raw));
  });
  app.addHook('preClose', async () => {
    for (const raw of inFlight) raw.socket.destroy();
    inFlight.clear();
  });

  routes.post(
    '/:link_token',
    { schema: { params: uploadLinkParams, response: { 200: uploadResultResponse } } },
    async (request) =>
      receiveMultipartUpload(request, uploadFolder(request), readGrantToken(request), {
        blobs: app.blobs,
        repos: app.repos,
        access,
        sizes,
        maxFileBytes: app.config.upload.maxFileBytes,
        now: () => app.now(),
        log: request.log,
      }),
  );

  routes.post(
    '/:link_token/complete',
    { schema: { params: uploadLinkParams, body: completeBody, response: { 200: uploadResultResponse } } },
    async (request) => {
      const folder = uploadFolder(request);
      await access.authorize(folder, readGrantToken(request), request.ip);
      return completeUploads(folder, request.body.uploads, {
        repos: app.repos,
        tusStorage: app.uploads.tusStorage,
        now: () => app.now(),
      });
    },
  );

  // tus: the body of a PATCH (or of a POST with creation-with-upload) is the raw byte stream that
  // @tus/server reads itself, so Fastify must leave it unread.
  await app.register(async (tusScope) => {
    tusScope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

    async function handleTus(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const folder = uploadFolder(request);
      // OPTIONS only describes the server; every other method needs the gates passed.
      const email =
        request.method === 'OPTIONS' ? null : (await access.authorize(folder, readGrantToken(request), request.ip)).email;
      const { link_token: linkToken } = request.params as { link_token: string };
      tusContexts.set(request.raw, { folder, linkToken, uploaderEmail: email });
      reply.hijack();
      await tus.handle(request.raw, reply.raw);
    }

    tusScope.route({ method: ['POST', 'OPTIONS'], url: '/:link_token/tus', handler: handleTus });
    tusScope.route({
      method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'],
      url: '/:link_token/tus/:upload_id',
      handler: handleTus,
    });
  });
}
