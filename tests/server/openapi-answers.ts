// Checks real answers of the server against the OpenAPI document (server/openapi/): the operation
// a request matched must declare the answer's status (or a default), and a JSON body must satisfy
// that answer's schema (JSON Schema 2020-12, ajv). Used by openapi.test.ts, and by every server
// test's client (tests/server/harness.ts; OPENAPI_CHECK=0 turns that off).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { TestExchange } from './http-client.ts';

type JsonObject = Record<string, any>;

export class AnswerOutsideTheDocumentError extends Error {
  readonly code = 'ANSWER_OUTSIDE_THE_DOCUMENT';
  constructor(exchange: TestExchange, why: string) {
    super(`${exchange.method} ${exchange.path} → ${exchange.status}: ${why}\n${JSON.stringify(exchange.body).slice(0, 2000)}`);
    this.name = 'AnswerOutsideTheDocumentError';
  }
}

function pathPattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\{[^}]+\}/g, '[^/]+')}$`);
}

function pointer(...segments: string[]): string {
  return segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

export class OpenApiAnswerChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: Array<{ template: string; pattern: RegExp; literal: number }>;
  /** How many answers were checked against a schema (a test asserts it is not zero). */
  checkedBodies = 0;

  constructor(private readonly document: JsonObject) {
    this.ajv.addSchema({ ...document, $id: 'openapi' });
    // A literal segment beats a parameter (/folders/files/delete before /folders/{id}/…).
    this.routes = Object.keys(document.paths)
      .map((template) => ({ template, pattern: pathPattern(template), literal: template.replace(/\{[^}]+\}/g, '').length }))
      .sort((a, b) => b.literal - a.literal);
  }

  /** Throws AnswerOutsideTheDocumentError when the answer is not one the document allows. */
  check(exchange: TestExchange): void {
    const spelled = exchange.path.split('?')[0]!;
    if (!spelled.startsWith('/api/')) return;
    // A prefix's `/` route answers with and without the slash; the document has the bare spelling.
    const path = spelled.endsWith('/') ? spelled.slice(0, -1) : spelled;
    const method = exchange.method.toLowerCase();
    const route = this.routes.find((candidate) => candidate.pattern.test(path) && this.document.paths[candidate.template][method]);
    // Paths no route has answer the scope's 404 {detail, code}: check it against the error schema.
    const responses: JsonObject | undefined = route ? this.document.paths[route.template][method].responses : undefined;
    if (route === undefined && exchange.status < 400) throw new AnswerOutsideTheDocumentError(exchange, 'a success from a path the document does not have');
    const key = responses === undefined ? undefined : responses[String(exchange.status)] !== undefined ? String(exchange.status) : 'default';
    if (responses !== undefined && key === 'default' && exchange.status < 400) {
      throw new AnswerOutsideTheDocumentError(exchange, 'a success status the operation does not declare');
    }
    if (exchange.status === 204 || method === 'head' || !exchange.contentType?.includes('application/json')) return;
    const ref =
      route === undefined || key === undefined
        ? 'openapi#/components/schemas/Error'
        : `openapi#/${pointer('paths', route.template, method, 'responses', key, 'content', 'application/json', 'schema')}`;
    if (route !== undefined && key !== undefined) {
      const declared = responses?.[key]?.content?.['application/json'];
      if (declared === undefined) {
        throw new AnswerOutsideTheDocumentError(exchange, `a JSON body where the document declares ${Object.keys(responses?.[key]?.content ?? {}).join(', ') || 'none'}`);
      }
      // A JSON answer without a schema (the document itself) is checked by its own tests.
      if (declared.schema === undefined) return;
    }
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    this.checkedBodies += 1;
    if (!validate(exchange.body)) throw new AnswerOutsideTheDocumentError(exchange, this.ajv.errorsText(validate.errors));
  }
}
