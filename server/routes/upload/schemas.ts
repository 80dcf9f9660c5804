// Request and response schemas of the anonymous upload routes (docs/api.md, "Upload").
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../../auth/passwords.ts';
import { MAX_FILES_PER_REQUEST } from '../../upload/multipart-upload.ts';
import { normalizeEmail } from '../../upload/verification-code.ts';

export const linkParams = z.object({ link_token: z.string() });
export const tusUploadParams = z.object({ link_token: z.string(), upload_id: z.string() });

// Trimmed before the format check: an allowed address typed with a space around it is that address.
const uploaderEmail = z
  .string({ error: 'Enter a valid e-mail address' })
  .trim()
  .pipe(z.email({ error: 'Enter a valid e-mail address' }).max(320, 'E-mail must be at most 320 characters'))
  .transform(normalizeEmail);

export const requestCodeBody = z.object({ uploader_email: uploaderEmail });

export const verifyPasswordBody = z.object({
  link_password: z
    .string({ error: 'Link password must be text' })
    .min(1, 'Link password is required')
    .max(MAX_PASSWORD_LENGTH, `Link password must be at most ${MAX_PASSWORD_LENGTH} characters`),
});

export const verifyCodeBody = z.object({
  uploader_email: uploaderEmail,
  verification_code: z
    .string({ error: 'Verification code must be text' })
    .regex(/^\d{6}$/, 'Verification code must be exactly 6 digits.'),
});

export const completeBody = z.object({
  uploads: z
    .array(z.object({ upload_id: z.string().max(64), file_hash: z.string().max(128) }))
    .min(1, 'At least one upload is required')
    .max(MAX_FILES_PER_REQUEST, `At most ${MAX_FILES_PER_REQUEST} uploads per request`),
});

export const linkStatusResponse = z.object({
  title: z.string(),
  description: z.string().nullable(),
  requires_password: z.boolean(),
  requires_email: z.boolean(),
  has_allowed_emails_list: z.boolean(),
  /** Not in the spec's status shape: tells the page whether to check content signatures. */
  perform_mime_check: z.boolean(),
});

export const messageResponse = z.object({ message: z.string() });
export const verifiedResponse = z.object({ verified: z.literal(true) });
export const publicKeyResponse = z.object({ public_key_spki: z.string() });

const resultItem = {
  filename: z.string(),
  original_raw_name_from_client: z.string(),
  path: z.string(),
  size: z.number(),
  upload_id: z.string().optional(),
};

export const uploadResultResponse = z.object({
  successful_files: z.array(z.object({ ...resultItem, id: z.number() })),
  failed_files: z.array(z.object({ ...resultItem, error: z.string() })),
});
