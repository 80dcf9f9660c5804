// Download links (docs/api.md, "Download links"): the admin's routes and the recipient's. The
// server adds one check only it makes (that the wrapped keys cover exactly the link's files, in
// server/routes/download-links/schemas.ts). Messages are written for people.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, rowIdParam } from './common.ts';
import { fileId } from './files.ts';

/** Most files one link may share. */
export const MAX_LINK_FILES = 10_000;
/** Most downloads per file a limited link may allow. */
export const MAX_LINK_DOWNLOADS = 10_000;
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
 * POST /download/links. `password` is the VERIFIER the browser derives from the link password
 * (docs/format.md), never the password; the server keeps only its argon2id hash.
 * `reencrypted_keys_json` (password links only) maps file id -> 'wrappedKey:ivPlusCiphertext'.
 * Parsed: ids de-duplicated, the expiry a time in milliseconds, absent values null.
 */
export const createLinkBody = z.object({
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
  /**
   * Downloads allowed per file (each recipient browser counted once per file; a ZIP of the whole
   * link fetches, so counts, each file once); null or absent: no limit.
   */
  max_downloads: z
    .number({ error: 'The download limit must be a whole number.' })
    .int('The download limit must be a whole number.')
    .min(1, 'The download limit must be at least 1.')
    .max(MAX_LINK_DOWNLOADS, `The download limit must be at most ${MAX_LINK_DOWNLOADS}.`)
    .nullable()
    .optional()
    .transform((value) => value ?? null),
});
export type CreateLinkBody = z.input<typeof createLinkBody>;

export const createLinkResponse = z.object({
  link_token: z.string(),
  /** {origin}/download/{link_token}, without any keys. */
  full_url: z.string(),
  has_password: z.boolean(),
  expiration_date: z.string().nullable(),
  max_downloads: z.number().nullable(),
});
export type CreateLinkResponse = z.infer<typeof createLinkResponse>;

/** One of a folder's active links (spec section 3, Download link). */
export const linkSummaryResponse = z.object({
  link_token: z.string(),
  creation_date: z.string(),
  expiration_date: z.string().nullable(),
  has_password: z.boolean(),
  file_count: z.number(),
  files: z.array(z.string()),
  /** Downloads allowed per file; null: no limit. */
  max_downloads: z.number().nullable(),
  /** Per file, in the order of `files`: recipients counted and the last time one was. */
  file_downloads: z.array(
    z.object({
      file_id: z.number(),
      download_count: z.number(),
      last_download_at: z.string().nullable(),
    }),
  ),
});
export type DownloadLink = z.infer<typeof linkSummaryResponse>;

export const linkListResponse = z.array(linkSummaryResponse);

export const linkFolderIdParams = z.object({ folderId: rowIdParam('Folder') });

/** DELETE /download/links/{id}: the id is the link's token (the admin screen knows links by token). */
export const linkIdParams = z.object({ id: z.string() });

export const linkTokenParams = z.object({ link_token: z.string() });

export const linkFileParams = z.object({
  link_token: z.string(),
  fileId: rowIdParam('File'),
});

/** A file a link shares, as the recipient sees it. */
export const sharedFile = z.object({
  id: z.number(),
  original_filename: z.string(),
  /** Plaintext bytes. */
  file_size: z.number(),
  /** base64 IV of the ciphertext (equals the file route's x-encryption-iv). */
  encryption_iv: z.string(),
});
export type SharedFile = z.infer<typeof sharedFile>;

/** GET /download/{link_token}/status. */
export const linkStatusResponse = z.object({
  requires_password: z.boolean(),
  files: z.array(sharedFile),
  /** Password links only: the KDF parameter block the browser derives the verifier with (not secret). */
  kdf_params: z.string().optional(),
});
export type DownloadLinkStatus = z.infer<typeof linkStatusResponse>;

/** POST /download/{link_token}/verify-password: `password` is the verifier. */
export const verifyLinkPasswordBody = z.object({
  password: z
    .string({ error: 'Password must be text' })
    .min(1, 'Password is required')
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`),
});
export type VerifyLinkPasswordBody = z.input<typeof verifyLinkPasswordBody>;

export const verifyLinkPasswordResponse = z.object({
  /** file id -> 'wrappedKey:ivPlusCiphertext'. */
  reencrypted_keys: z.record(z.string(), z.string()),
});
export type VerifyLinkPasswordResponse = z.infer<typeof verifyLinkPasswordResponse>;
