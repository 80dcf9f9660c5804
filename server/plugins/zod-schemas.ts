// Route schemas are zod schemas, declared once in contract/ (shared with the browser and the
// end-to-end client) and extended in server/routes/* only where a check needs server modules.
// They validate bodies, params and queries at the edge (a failure
// becomes 422 {detail: [{loc, msg}], code: "VALIDATION_FAILED"}), give handlers typed input through
// ZodTypeProvider, and filter responses to the declared fields (so a row's password hash can never
// leak into JSON).
import type { FastifyInstance, FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { z } from 'zod';
import { RequestValidationError, type ValidationIssue } from '../errors.ts';

export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

const LOC_NAMES: Record<string, string> = { querystring: 'query' };

function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = data;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

export function toValidationIssues(error: z.ZodError, data: unknown, part: string): ValidationIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((key) => (typeof key === 'number' ? key : String(key)));
    const missing = issue.code === 'invalid_type' && valueAt(data, issue.path) === undefined;
    return { loc: [LOC_NAMES[part] ?? part, ...path], msg: missing ? 'Field required' : issue.message };
  });
}

const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (!(schema instanceof z.ZodType)) throw new TypeError('Route schemas must be zod schemas');
  const part = httpPart ?? 'body';
  return (data: unknown) => {
    // Fastify hands a missing body over as null; validate it as "nothing was sent".
    const input = data === null ? undefined : data;
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(toValidationIssues(result.error, input, part)) };
  };
};

const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) return (data) => JSON.stringify(data);
  return (data) => JSON.stringify(schema.parse(data));
};

export function useZodSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}
