// Builds the OpenAPI 3.1 document from the routes themselves: each route's zod schemas (the ones
// that validate its requests and serialise its answers, from contract/) become JSON Schema through
// zod's own converter, and ./operations.ts adds what a schema cannot say. Requests are described by
// the schemas' input side (what a client sends), answers by their output side.
import { z } from 'zod';
import { errorResponse, VALIDATION_FAILED } from '../../contract/errors.ts';
import type { CataloguedOperation } from './route-catalogue.ts';
import { OPERATION_NOTES } from './operations.ts';
import type { HeaderNote, OpenApiOperationNotes } from './types.ts';
import { codedError } from '../../contract/coded-error.ts';

type JsonObject = Record<string, unknown>;

/** An operation of the router that ./operations.ts does not describe (the drift test names it). */
export class UndocumentedOperationError extends codedError('UNDOCUMENTED_OPERATION') {
  constructor(readonly operation: string) {
    super(`${operation} has no entry in server/openapi/operations.ts`);
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/api/folders/:id` → `/api/folders/{id}`. */
export function openApiPath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

export function operationKey(method: string, fastifyUrl: string): string {
  return `${method} ${openApiPath(fastifyUrl)}`;
}

function jsonSchema(schema: unknown, io: 'input' | 'output'): JsonObject {
  if (!(schema instanceof z.ZodType)) throw new TypeError('Route schemas must be zod schemas');
  // Refinements and transforms have no JSON Schema form; the input side of a transform (what a
  // client sends) is what a request schema documents.
  const converted = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonObject;
  delete converted.$schema;
  return converted;
}

function parameters(schema: unknown, location: 'path' | 'query', descriptions: Record<string, string> = {}): JsonObject[] {
  if (schema === undefined) return [];
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: property,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
  }));
}

function headerParameters(headers: HeaderNote[] = []): JsonObject[] {
  return headers.map((header) => ({
    name: header.name,
    in: 'header',
    required: header.required ?? false,
    description: header.description,
    schema: { type: 'string' },
  }));
}

function headerObjects(headers: Record<string, string> = {}): JsonObject {
  return Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
}

function errorAnswer(codes: string[]): JsonObject {
  return {
    description: `Error: ${codes.join(', ')}`,
    content: {
      'application/json': {
        schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: codes } } }] },
      },
    },
  };
}

const MULTIPART_SCHEMA = {
  type: 'object',
  description: 'Gate fields come before the first file part; per-file arrays are in the files\' order (docs/api.md, "One request: multipart").',
  properties: {
    link_password: { type: 'string' },
    uploader_email: { type: 'string' },
    verification_code: { type: 'string' },
    key_epoch: { type: 'string', description: 'A team folder\'s current key epoch the file keys are sealed to (absent for a personal folder); another epoch is refused 409 FOLDER_KEY_CHANGED.' },
    files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' }, description: 'The encrypted bytes, one part per file; the part\'s filename is the file name.' },
    encrypted_keys: { type: 'array', items: { type: 'string' }, description: 'base64 wrapped file key per file' },
    encryption_ivs: { type: 'array', items: { type: 'string' }, description: 'base64 IV per file' },
    file_hashes: { type: 'array', items: { type: 'string' }, description: 'SHA-256 hex of the plaintext per file' },
    relative_paths: { type: 'array', items: { type: 'string' }, description: 'One per file, or none (all ".")' },
    file_sizes: { type: 'array', items: { type: 'string' }, description: 'Plaintext bytes per file (optional)' },
  },
  required: ['files', 'encrypted_keys', 'encryption_ivs', 'file_hashes'],
};

function requestBody(schema: JsonObject | undefined, notes: OpenApiOperationNotes): JsonObject | undefined {
  if (notes.multipart) return { required: true, content: { 'multipart/form-data': { schema: MULTIPART_SCHEMA } } };
  if (notes.tus?.body) {
    return {
      required: notes.tus.body === 'required',
      content: { 'application/offset+octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
    };
  }
  if (notes.binaryRequest) return { required: true, content: { [notes.binaryRequest]: { schema: { type: 'string', contentMediaType: notes.binaryRequest } } } };
  if (schema === undefined) return undefined;
  const content: JsonObject = {};
  if (notes.form !== true) content['application/json'] = { schema };
  if (notes.form) content['application/x-www-form-urlencoded'] = { schema };
  return { required: true, content };
}

function successAnswers(route: CataloguedOperation['route'], notes: OpenApiOperationNotes): JsonObject {
  if (notes.tus) {
    return Object.fromEntries(
      Object.entries(notes.tus.responses).map(([status, answer]) => [status, { description: answer.description, headers: headerObjects(answer.headers) }]),
    );
  }
  if (notes.noContent) return { 204: { description: 'Done; no body.' } };
  if (notes.redirect) return { 303: { description: notes.redirect, headers: headerObjects({ location: notes.redirect }) } };
  if (notes.binary) {
    const mediaTypes = Array.isArray(notes.binary.mediaType) ? notes.binary.mediaType : [notes.binary.mediaType];
    // A file's bytes: no schema (a JSON file is checked as a file, not as an API value).
    const content = Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, {}]));
    const answer = { description: 'The bytes.', headers: headerObjects(notes.binary.headers), content };
    return notes.binary.ranges ? { 200: answer, 206: { ...answer, description: 'The requested byte range.' } } : { 200: answer };
  }
  if (notes.rawResponse) return { 200: { description: notes.summary, content: { [notes.rawResponse]: {} } } };
  const declared = (route.schema?.response ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(declared).map(([status, schema]) => [status, { description: 'OK', content: { 'application/json': { schema: jsonSchema(schema, 'output') } } }]),
  );
}

function errorCodesByStatus(operation: CataloguedOperation, notes: OpenApiOperationNotes): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  const add = (status: number, codes: string[]) => byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), ...codes])]);
  const { schema, config } = operation.route;
  if (config?.public !== true) add(401, ['NOT_AUTHENTICATED', 'SESSION_EXPIRED']);
  if (MUTATING.has(operation.method)) add(403, ['CSRF_FAILED']);
  if (notes.gates) {
    add(401, ['LINK_PASSWORD_REQUIRED', 'EMAIL_VERIFICATION_REQUIRED']);
    add(403, ['EMAIL_NOT_ALLOWED']);
  }
  for (const [status, codes] of Object.entries(notes.errors ?? {})) add(Number(status), codes);
  if (schema?.body !== undefined || schema?.params !== undefined || schema?.querystring !== undefined) add(422, [VALIDATION_FAILED]);
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function buildOperation(operation: CataloguedOperation, notes: OpenApiOperationNotes): JsonObject {
  const { route, method } = operation;
  const schema = route.schema ?? {};
  const isPublic = route.config?.public === true;
  const responses: JsonObject = successAnswers(route, notes);
  for (const [status, codes] of errorCodesByStatus(operation, notes)) {
    if (responses[status] === undefined) responses[status] = errorAnswer(codes);
  }
  responses.default = { description: 'Any other refusal (docs/api.md, "Error codes"); 500 INTERNAL.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const security: JsonObject[] = [];
  if (!isPublic) security.push(MUTATING.has(method) ? { session: [], csrf: [] } : { session: [] });
  else if (MUTATING.has(method)) security.push({ csrf: [] });
  return {
    operationId: operationKey(method, operation.url).replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, ''),
    summary: notes.summary,
    tags: [notes.tag],
    parameters: [
      ...parameters(schema.params, 'path', notes.params),
      ...pathParametersWithoutSchema(operation.url, schema.params === undefined, notes.params),
      ...parameters(schema.querystring, 'query'),
      ...headerParameters(notes.tus?.requestHeaders),
      ...headerParameters(notes.requestHeaders),
    ],
    ...(requestBodyOf(schema.body, notes)),
    responses,
    security,
  };
}

function requestBodyOf(body: unknown, notes: OpenApiOperationNotes): JsonObject {
  const described = requestBody(body === undefined ? undefined : jsonSchema(body, 'input'), notes);
  return described ? { requestBody: described } : {};
}

/** Path parameters of a route without a params schema (tus): plain strings. */
function pathParametersWithoutSchema(url: string, noSchema: boolean, descriptions: Record<string, string> = {}): JsonObject[] {
  if (!noSchema) return [];
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(descriptions[name!] ? { description: descriptions[name!] } : {}),
  }));
}

export interface DocumentOptions {
  version: string;
}

/** The document for these operations; throws UndocumentedOperationError for one without notes. */
export function buildOpenApiDocument(operations: CataloguedOperation[], options: DocumentOptions): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const operation of operations) {
    const key = operationKey(operation.method, operation.url);
    const notes = OPERATION_NOTES[key];
    if (!notes) throw new UndocumentedOperationError(key);
    const path = openApiPath(operation.url);
    paths[path] = { ...paths[path], [operation.method.toLowerCase()]: buildOperation(operation, notes) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sealdrop API',
      version: options.version,
      description:
        'End-to-end encrypted file exchange. Files are encrypted in the client (docs/format.md); the server stores ciphertext. ' +
        'Errors are `{detail, code}`; branch on `code`. Meanings, limits and texts: docs/api.md.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    tags: [...new Set(Object.values(OPERATION_NOTES).map((notes) => notes.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: jsonSchema(errorResponse, 'output') },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sealdrop_session', description: 'Set by POST /api/auth/token.' },
        csrf: { type: 'apiKey', in: 'header', name: 'x-csrftoken', description: 'The value of the csrftoken cookie, on every POST, PUT, PATCH and DELETE.' },
      },
    },
  };
}
