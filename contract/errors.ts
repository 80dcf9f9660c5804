// The body of every error answer (docs/api.md, "Error codes"): `detail` is the text a person
// reads, `code` the fixed name a client branches on. A 422 carries the list of refused values
// instead of a text. Routes do not declare these as response schemas: the server's one error
// handler writes them, and a client reads them defensively (an answer may come from a proxy).
import { z } from 'zod';

/** The code of a 422: a body, query or path value the route's schema refuses. */
export const VALIDATION_FAILED = 'VALIDATION_FAILED';

/** One refused value: where it was (`["body", "field"]`, `["params", "id"]`) and why. */
export const validationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssue>;

export const errorResponse = z.object({
  detail: z.union([z.string(), z.array(validationIssue)]),
  code: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;
