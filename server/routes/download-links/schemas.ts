// Request and response schemas of the download-link routes (docs/api.md, "Download links").
// Messages are what the client shows next to a field, so they are written for people.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../auth/passwords.ts';
import { parseLinkKeys } from '../../download-links/link-keys.ts';
import { fileId } from '../files/schemas.ts';
import { rowIdParam } from '../stored-values.ts';

/** Most files one link may share. */
export const MAX_LINK_FILES = 10_000;
/** The create payload carries a wrapped key per file, so it may exceed the default 1 MiB body limit. */
export const CREATE_LINK_BODY_LIMIT = 8 * 1024 * 1024;

const INVALID_DATE = 'Please select a valid expiration date.';

// A date-time with an explicit offset (what Date.prototype.toISOString produces), so the server
// never guesses the client's time zone; zod also rejects impossible dates such as February 31.
const isoDateTime = z
  .string({ error: INVALID_DATE })
  .pipe(z.iso.datetime({ offset: true, error: INVALID_DATE }))
  .transform((value) => Date.parse(value));

/**
 * `password` is the verifier the browser derives from the link password (docs/format.md), which
 * the server treats like a password: it keeps only its argon2id hash.
 */
export const createLinkBody = z
  .object({
    file_ids: z
      .array(fileId, { error: 'File ids must be a list' })
      .min(1, 'Please select at least one file to create a download link.')
      .max(MAX_LINK_FILES, `At most ${MAX_LINK_FILES} files per link`)
      .transform((ids) => [...new Set(ids)]),
    password: z
      .string({ error: 'Password must be text' })
      .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`)
      .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`)
      .nullable()
      .optional()
      .transform((value) => value ?? null),
    expiration_date: isoDateTime
      .nullable()
      .optional()
      .transform((value) => value ?? null),
    reencrypted_keys_json: z
      .string({ error: 'Wrapped keys must be a JSON text' })
      .nullable()
      .optional()
      .transform((value) => value ?? null),
  })
  .transform((body, context) => {
    const { password, reencrypted_keys_json: keysJson } = body;
    if (password === null) {
      // Keys of a link without password travel only in the URL fragment, never to the server.
      if (keysJson !== null) {
        context.addIssue({
          code: 'custom',
          path: ['reencrypted_keys_json'],
          message: 'Keys of a link without password belong in the link, not on the server',
        });
        return z.NEVER;
      }
      return { ...body, keys: null };
    }
    if (keysJson === null) {
      context.addIssue({ code: 'custom', path: ['reencrypted_keys_json'], message: 'Wrapped keys are required with a password' });
      return z.NEVER;
    }
    const parsed = parseLinkKeys(keysJson, body.file_ids);
    if (!parsed.ok) {
      context.addIssue({ code: 'custom', path: ['reencrypted_keys_json'], message: parsed.message });
      return z.NEVER;
    }
    return { ...body, keys: parsed.keys };
  });

export const createLinkResponse = z.object({
  link_token: z.string(),
  full_url: z.string(),
  has_password: z.boolean(),
  expiration_date: z.string().nullable(),
});

export const linkSummaryResponse = z.object({
  link_token: z.string(),
  creation_date: z.string(),
  expiration_date: z.string().nullable(),
  has_password: z.boolean(),
  file_count: z.number(),
  files: z.array(z.string()),
});

export const linkListResponse = z.array(linkSummaryResponse);

export const folderIdParams = z.object({ folderId: rowIdParam('Folder') });

/** DELETE /links/{id}: the id is the link's token (the admin screen knows links by token). */
export const linkIdParams = z.object({ id: z.string() });

export const linkTokenParams = z.object({ link_token: z.string() });

export const linkFileParams = z.object({
  link_token: z.string(),
  fileId: rowIdParam('File'),
});

export const linkStatusResponse = z.object({
  requires_password: z.boolean(),
  files: z.array(z.object({ id: z.number(), original_filename: z.string(), file_size: z.number(), encryption_iv: z.string() })),
  /** Password links only: the KDF parameter block the browser derives the verifier with. */
  kdf_params: z.string().optional(),
});

export const verifyLinkPasswordBody = z.object({
  password: z
    .string({ error: 'Password must be text' })
    .min(1, 'Password is required')
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`),
});

export const verifyLinkPasswordResponse = z.object({
  reencrypted_keys: z.record(z.string(), z.string()),
});
