// The API's own description: the OpenAPI document built from the routes (server/openapi/) and a
// reference page (Swagger UI, served from our own origin so the page works offline and within the
// Content-Security-Policy: no inline script, no outside host).
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../../openapi/document.ts';
import { ApiError } from '../../errors.ts';

const require = createRequire(import.meta.url);
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const { version } = require('../../../package.json') as { version: string };

/** The files of the reference page: name → [file, content type]. Nothing else is served. */
const ASSETS: ReadonlyMap<string, [string, string]> = new Map([
  ['swagger-ui.css', [path.join(SWAGGER_UI_DIR, 'swagger-ui.css'), 'text/css; charset=utf-8']],
  ['swagger-ui-bundle.js', [path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'), 'text/javascript; charset=utf-8']],
  ['start.js', [path.join(import.meta.dirname, 'docs-start.js'), 'text/javascript; charset=utf-8']],
]);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sealdrop API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;

export async function metaRoutes(app: FastifyInstance): Promise<void> {
  let document: string | undefined;

  app.get('/openapi.json', { config: { public: true } }, async (_request, reply) => {
    // Built once, after every route is registered (the first request comes after start-up).
    document ??= JSON.stringify(buildOpenApiDocument(app.apiRouteCatalogue.operations(), { version }));
    return reply.type('application/json; charset=utf-8').send(document);
  });

  app.get('/docs', { config: { public: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));

  app.get('/docs/:asset', { config: { public: true } }, async (request, reply) => {
    // A Map, not an object: 'valueOf' or '__proto__' must be unknown names, not inherited members.
    const entry = ASSETS.get((request.params as { asset: string }).asset);
    if (!entry) throw new ApiError('NOT_FOUND');
    const [file, type] = entry;
    return reply.type(type).send(await fs.readFile(file));
  });
}
