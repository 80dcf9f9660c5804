// Rules for request values that end up in a database query, so that a value PostgreSQL cannot
// take is refused at the edge (422) instead of failing the statement (500), and the answer is the
// same on SQLite, which would have taken it:
// - text: PostgreSQL's text type cannot hold U+0000. No field of the API has a use for it.
// - row ids: PostgreSQL's integer ids stop at 2147483647 (SQLite's are wider); a larger id can
//   name no row on either database.
import { z } from 'zod';

export const MAX_ROW_ID = 2_147_483_647;

export function withoutNul<T extends z.ZodType<string, string>>(schema: T, field: string): T {
  return schema.refine((value) => !value.includes('\u0000'), `${field} cannot contain a NUL character`) as T;
}

/** A row id in a JSON body: `{what} id must be ...`. */
export function rowId(what: string) {
  return z
    .number({ error: `${what} id must be a number` })
    .int(`${what} id must be a positive whole number`)
    .positive(`${what} id must be a positive whole number`)
    .max(MAX_ROW_ID, `${what} id is out of range`);
}

/** A row id in a path: digits only (so "1e3" or " 1" are refused), then the range. */
export function rowIdParam(what: string) {
  return z
    .string()
    .regex(/^\d{1,15}$/, `${what} id must be a positive whole number`)
    .transform(Number)
    .refine((id) => id <= MAX_ROW_ID, `${what} id is out of range`);
}
