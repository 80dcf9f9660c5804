// The anonymous upload routes (docs/api.md, "Upload"): the link's status, its gates, and the
// answers of both transports. The multipart body and the tus protocol are not JSON and are
// described in docs/api.md; the server lower-cases e-mail addresses after this contract's checks
// (server/routes/upload/schemas.ts), since it compares them that way.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from './common.ts';

/** Most files one request carries: a multipart upload's files, a complete request's uploads. */
export const MAX_FILES_PER_REQUEST = 1000;

/**
 * The header a client may send with a multipart upload (docs/api.md, "Retrying a batch"): a
 * random key made once per batch and sent again, unchanged, with every retry of that batch. A
 * request repeating a key the server has recorded for the link is answered with the recorded
 * answer and stores nothing.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** What a key may look like: 16 to 128 letters, digits, '-' or '_' (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** A tus upload id as the server's tus endpoint names uploads (16 random bytes in hex); anything else names none. */
export const TUS_UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;

export const uploadLinkParams = z.object({ link_token: z.string() });
/** The multipart upload's own header (a malformed key is refused 422, as any invalid value); other headers pass untouched. */
export const multipartUploadHeaders = z.looseObject({
  'idempotency-key': z.string().regex(IDEMPOTENCY_KEY_PATTERN, 'Idempotency-Key must be 16 to 128 letters, digits, - or _').optional(),
});
export const tusUploadParams = z.object({ link_token: z.string(), upload_id: z.string() });

// Trimmed before the format check: an allowed address typed with a space around it is that address.
export const uploaderEmail = z
  .string({ error: 'Enter a valid e-mail address' })
  .trim()
  .pipe(z.email({ error: 'Enter a valid e-mail address' }).max(320, 'E-mail must be at most 320 characters'));

/** POST .../request-code. */
export const requestCodeBody = z.object({ uploader_email: uploaderEmail });
export type RequestCodeBody = z.input<typeof requestCodeBody>;

/** POST .../verify-password. */
export const verifyUploadPasswordBody = z.object({
  link_password: z
    .string({ error: 'Link password must be text' })
    .min(1, 'Link password is required')
    .max(MAX_PASSWORD_LENGTH, `Link password must be at most ${MAX_PASSWORD_LENGTH} characters`),
});
export type VerifyUploadPasswordBody = z.input<typeof verifyUploadPasswordBody>;

/** POST .../verify-code. */
export const verifyCodeBody = z.object({
  uploader_email: uploaderEmail,
  verification_code: z
    .string({ error: 'Verification code must be text' })
    .regex(/^\d{6}$/, 'Verification code must be exactly 6 digits.'),
});
export type VerifyCodeBody = z.input<typeof verifyCodeBody>;

/** POST .../complete: the SHA-256 of each finished tus upload's plaintext. */
export const completeBody = z.object({
  uploads: z
    .array(z.object({ upload_id: z.string().max(64), file_hash: z.string().max(128) }))
    .min(1, 'At least one upload is required')
    .max(MAX_FILES_PER_REQUEST, `At most ${MAX_FILES_PER_REQUEST} uploads per request`),
});
export type CompleteBody = z.input<typeof completeBody>;

/** GET .../status. */
export const uploadLinkStatusResponse = z.object({
  title: z.string(),
  description: z.string().nullable(),
  requires_password: z.boolean(),
  requires_email: z.boolean(),
  has_allowed_emails_list: z.boolean(),
  /** Not in the spec's status shape: tells the page whether to check content signatures. */
  perform_mime_check: z.boolean(),
  /**
   * Not in the spec's status shape: hours without activity after which the server sweeps an
   * unfinished resumable upload (UPLOAD_ABANDON_HOURS); the page forgets its resume entries by it.
   */
  upload_abandon_hours: z.number().positive(),
});
export type UploadLinkStatus = z.infer<typeof uploadLinkStatusResponse>;

const resultItem = {
  /** The stored name. */
  filename: z.string(),
  /** The name exactly as the client sent it (a multipart filename's quote arrives as %22). */
  original_raw_name_from_client: z.string(),
  path: z.string(),
  /** Plaintext bytes. */
  size: z.number(),
  /** Items of the complete route only. */
  upload_id: z.string().optional(),
};

export const uploadSuccessItem = z.object({ ...resultItem, id: z.number() });
export type UploadSuccessItem = z.infer<typeof uploadSuccessItem>;
export const uploadFailureItem = z.object({ ...resultItem, error: z.string() });
export type UploadFailureItem = z.infer<typeof uploadFailureItem>;

/** The answer of both transports (multipart POST and tus complete), 200 even when every file failed. */
export const uploadResultResponse = z.object({
  successful_files: z.array(uploadSuccessItem),
  failed_files: z.array(uploadFailureItem),
});
export type UploadResult = z.infer<typeof uploadResultResponse>;
