// The OpenAPI document (server/openapi/) against the router and against real answers: every route
// has its operation and every operation its route; an independent validator accepts the
// document; answers of a walk through the API satisfy the document's schemas; the reference page
// is served from our own origin under the app's CSP.
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRsaKeyPair } from '../../server/crypto/keys.ts';
import { buildOpenApiDocument, operationKey, UndocumentedOperationError } from '../../server/openapi/document.ts';
import { OPERATION_NOTES } from '../../server/openapi/operations.ts';
import { listApiRoutes } from './fuzz-http.ts';
import { TestClient } from './http-client.ts';
import { startServer, type TestServer } from './harness.ts';
import { AnswerOutsideTheDocumentError, OpenApiAnswerChecker } from './openapi-answers.ts';
import { createUploadFolder, MultipartBody, postMultipart, sealForUpload, uploadPath } from './upload-helpers.ts';

let server: TestServer;
let document: Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function documentedOperations(doc: Record<string, any>): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

beforeAll(async () => {
  // The bench route is off by default; on here so that every route the code can register is checked.
  server = await startServer({ env: { BENCH_DISCARD_ROUTE: 'true' } });
  const response = await server.client().get('/api/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
});

afterAll(async () => {
  await server?.close();
});

describe('the document and the router', () => {
  it('has an operation for every route and a route for every operation', () => {
    const routed = server.app.apiRouteCatalogue.operations().map((operation) => operationKey(operation.method, operation.url));
    const documented = documentedOperations(document);
    expect(new Set(documented)).toEqual(new Set(routed));
    expect(new Set(Object.keys(OPERATION_NOTES))).toEqual(new Set(routed));
    expect(documented.length).toBeGreaterThan(45);
    // The router's own printout, read independently of the catalogue: each route is documented
    // (bar the aliases the router adds: the trailing-slash twin and the automatic HEAD of a GET).
    const documentedSet = new Set(documented);
    for (const route of listApiRoutes(server.app)) {
      if (route.url.includes('*')) continue;
      const key = operationKey(route.method, route.url.replace(/(.)\/$/, '$1'));
      const automaticHead = route.method === 'HEAD' && documentedSet.has(key.replace(/^HEAD/, 'GET'));
      if (!automaticHead) expect(documentedSet.has(key), key).toBe(true);
    }
    // The operators' endpoints outside /api are documented with the API.
    for (const key of ['GET /healthz', 'GET /readyz', 'GET /metrics']) expect(documentedSet.has(key), key).toBe(true);
    // And the router answers each documented one (asked independently of the catalogue).
    for (const key of documented) {
      const [method, path] = key.split(' ') as [string, string];
      const url = path.replace(/\{([^}]+)\}/g, ':$1');
      expect(server.app.hasRoute({ method: method as 'GET', url }), key).toBe(true);
    }
  });

  it('refuses to build when a route has no operation notes', () => {
    const operations = server.app.apiRouteCatalogue.operations();
    const extra = { ...operations[0]!, method: 'GET', url: '/api/not-described/:id' };
    expect(() => buildOpenApiDocument([...operations, extra], { version: 'test' })).toThrow(UndocumentedOperationError);
  });

  it('is valid OpenAPI 3.1 for an independent validator', async () => {
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes errors as {detail, code} with the codes of each route', () => {
    const folder = document.paths['/api/folders/{id}'].get.responses;
    expect(folder['404'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['FOLDER_NOT_FOUND']);
    expect(folder['401'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['NOT_AUTHENTICATED', 'SESSION_EXPIRED']);
    expect(folder['422'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['VALIDATION_FAILED']);
    expect(document.components.schemas.Error.required).toEqual(['detail', 'code']);
    const upload = document.paths['/api/upload/{link_token}'].post;
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(upload.security).toEqual([{ csrf: [] }]);
    const patch = document.paths['/api/upload/{link_token}/tus/{upload_id}'].patch;
    expect(Object.keys(patch.requestBody.content)).toEqual(['application/offset+octet-stream']);
    expect(patch.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['link_token', 'upload_id', 'tus-resumable', 'upload-offset']);
  });
});

describe('real answers', () => {
  it('satisfy the schemas of their operations', async () => {
    const checker = new OpenApiAnswerChecker(document);
    const client = new TestClient(server.baseUrl, (exchange) => checker.check(exchange));
    const walker = await server.createUser('walker', 'walker password');
    // Errors first: no session, wrong password, unknown path.
    expect((await client.get('/api/folders')).status).toBe(401);
    expect((await client.login('walker', 'wrong password')).status).toBe(401);
    expect((await client.get('/api/no-such-route')).status).toBe(404);
    expect((await client.login('walker', 'walker password')).status).toBe(200);
    expect((await client.get('/api/auth/users/me')).status).toBe(200);
    const pair = generateRsaKeyPair();
    expect((await client.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki })).status).toBe(200);
    expect((await client.get('/api/auth/public-key')).status).toBe(200);
    expect((await client.get('/api/auth/users/me/encrypted-key')).status).toBe(404);
    const created = await client.post('/api/folders', { title: 'Walk' });
    expect(created.status).toBe(201);
    const folderId = created.body.id as number;
    expect((await client.get('/api/folders?sort_by=title&sort_order=asc')).status).toBe(200);
    expect((await client.get(`/api/folders/${folderId}`)).status).toBe(200);
    expect((await client.get('/api/folders/abc')).status).toBe(422);
    expect((await client.get('/api/folders/999999')).status).toBe(404);
    expect((await client.put(`/api/folders/${folderId}/notifications`, { mode: 'off', include_file_names: false })).status).toBe(200);
    expect((await client.get(`/api/folders/${folderId}/notifications`)).status).toBe(200);
    expect((await client.get('/api/auth/webhook')).status).toBe(200);

    // An uploader sends a file through the folder's link (multipart).
    const folder = (await server.app.repos.folders.findOwned(walker.id, folderId))!;
    const uploader = new TestClient(server.baseUrl, (exchange) => checker.check(exchange));
    expect((await uploader.get(uploadPath(folder, '/status'))).status).toBe(200);
    expect((await uploader.get(uploadPath(folder, '/public-key'))).status).toBe(200);
    const sealed = sealForUpload(Buffer.from('hello, openapi'), pair.publicKeySpki);
    const body = new MultipartBody().files([{ name: 'hello.txt', data: sealed.sealed, encryptedKey: sealed.encryptedKey, iv: sealed.iv, hash: sealed.hash }]);
    const uploaded = await postMultipart(uploader, uploadPath(folder, ''), body);
    expect(uploaded.status).toBe(200);
    expect((await uploader.get('/api/upload/not-a-real-link-token-aaaaaaaaaaaaaaaaaaaaaaa/status')).status).toBe(404);

    const files = await client.get(`/api/folders/${folderId}/files`);
    expect(files.status).toBe(200);
    expect(files.body).toHaveLength(1);
    const link = await client.post('/api/download/links', { file_ids: [files.body[0].id], max_downloads: 3 });
    expect(link.status).toBe(201);
    expect((await client.get(`/api/download/links/folder/${folderId}`)).status).toBe(200);
    const recipient = new TestClient(server.baseUrl, (exchange) => checker.check(exchange));
    expect((await recipient.get(`/api/download/${link.body.link_token}/status`)).status).toBe(200);
    expect((await recipient.post(`/api/download/${link.body.link_token}/verify-password`, { password: 'not a password link' })).status).toBe(400);
    expect((await client.post('/api/folders/files/delete', { file_ids: [files.body[0].id, 999] })).status).toBe(200);
    expect((await client.post('/api/auth/logout')).status).toBe(200);

    expect(checker.checkedBodies).toBeGreaterThanOrEqual(20);
  });

  it('catches an answer that leaves the document (positive control)', () => {
    const checker = new OpenApiAnswerChecker(document);
    const exchange = { method: 'GET', path: '/api/folders/1', status: 200, contentType: 'application/json', body: { id: 'one' } };
    expect(() => checker.check(exchange)).toThrow(AnswerOutsideTheDocumentError);
    expect(() => checker.check({ ...exchange, status: 404, body: { detail: 'Folder not found' } })).toThrow(AnswerOutsideTheDocumentError);
    expect(() => checker.check({ ...exchange, status: 299, body: {} })).toThrow(AnswerOutsideTheDocumentError);
    expect(() => checker.check({ ...exchange, path: '/api/not-documented', body: {} })).toThrow(AnswerOutsideTheDocumentError);
  });
});

describe('the reference page', () => {
  it('is served from our origin under the CSP, with no inline script', async () => {
    const client = server.client();
    const page = await client.get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/<script>(?!<)/);
    const sources = [...(page.body as string).matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.length).toBe(3);
    for (const source of sources) {
      expect(source.startsWith('/api/docs/')).toBe(true);
      expect((await client.get(source)).status).toBe(200);
    }
    expect((await client.get('/api/docs/package.json')).status).toBe(404);
    expect((await client.get('/api/docs/..%2F..%2Fpackage.json')).status).toBe(404);
  });
});
