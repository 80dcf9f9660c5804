// Building blocks every API area shares: row ids, text that a database can hold, and the small
// answers several routes give. Values no database can hold are refused at the edge with 422 on
// both SQLite and PostgreSQL (docs/api.md, "Conventions"):
// - text: PostgreSQL's text type cannot hold U+0000. No field of the API has a use for it.
// - row ids: PostgreSQL's integer ids stop at 2147483647 (SQLite's are wider); a larger id can
//   name no row on either database.
import { z } from 'zod';

export const MAX_ROW_ID = 2_147_483_647;

/** `schema` with NUL refused: `{field} cannot contain a NUL character`. */
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

/** The shortest and longest password (login password, and a download link's verifier). */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

/** `{detail}`: logout, change-password. */
export const detailResponse = z.object({ detail: z.string() });
export type DetailResponse = z.infer<typeof detailResponse>;

/** `{verified: true}`: a password or code that was right. */
export const verifiedResponse = z.object({ verified: z.literal(true) });
export type VerifiedResponse = z.infer<typeof verifiedResponse>;

/** `{message}`: an upload link's request-code. */
export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;
