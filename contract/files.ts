// The admin's file routes (docs/api.md, "Files (admin)"). The ciphertext route has no JSON body;
// its headers are described in docs/api.md and its Content-Disposition in ./content-disposition.ts.
import { z } from 'zod';
import { rowId, rowIdParam } from './common.ts';
import { TUS_UPLOAD_ID_PATTERN } from './upload.ts';

/** Most ids one delete request may name. */
export const MAX_DELETE_IDS = 10_000;
/** Most ids one export URL may name; a larger selection is exported as the whole folder or in parts. */
export const MAX_EXPORT_IDS = 500;

export const fileId = rowId('File');

export const fileIdParams = z.object({ fileId: rowIdParam('File') });

/**
 * The File record (spec section 3) with the key data docs/api.md adds, so the admin's browser can
 * re-wrap the keys of selected files for a download link without fetching each file.
 */
export const fileResponse = z.object({
  id: z.number(),
  original_filename: z.string(),
  /** '<upload id>/<directories>/<name>': the first segment is dropped, the middle ones are the path. */
  stored_filename: z.string(),
  /** The directory directly ('.' for the root). */
  relative_path: z.string(),
  /** Plaintext bytes. */
  file_size: z.number(),
  /** SHA-256 hex of the plaintext. */
  file_hash: z.string(),
  /** base64: the file key wrapped with the admin's public key. */
  encrypted_key: z.string(),
  /** base64 IV of the file. */
  encryption_iv: z.string(),
  /** ISO 8601 UTC. */
  upload_time: z.string(),
  /** null: never downloaded by the admin. */
  last_downloaded_admin: z.string().nullable(),
  /** The team folder's key epoch `encrypted_key` is sealed to; null: the owner's account key. */
  key_epoch: z.number().nullable(),
});
export type FileRecord = z.infer<typeof fileResponse>;

export const fileListResponse = z.array(fileResponse);

/** POST /folders/files/delete. */
export const deleteFilesBody = z.object({
  file_ids: z
    .array(fileId, { error: 'File ids must be a list' })
    .min(1, 'Select at least one file')
    .max(MAX_DELETE_IDS, `At most ${MAX_DELETE_IDS} files per request`),
});
export type DeleteFilesBody = z.input<typeof deleteFilesBody>;

export const deleteFilesResponse = z.object({
  deleted: z.number(),
  /** The ids that are not the caller's files, each with "File not found". */
  errors: z.array(z.object({ file_id: z.number(), detail: z.string() })),
});
export type DeleteFilesResponse = z.infer<typeof deleteFilesResponse>;

// The ids travel in the URL because the browser starts the export by navigating to it; the cap
// keeps that URL well inside what servers and proxies accept (a request line of about 8 KB).
const ID_LIST = /^\d{1,15}(,\d{1,15})*$/;
const ID_LIST_MESSAGE = 'File ids must be comma-separated positive whole numbers';

/** GET /folders/{id}/export query: `file_ids=12,13` (absent: the whole folder). Parsed: the ids, or null. */
export const exportQuery = z.object({
  file_ids: z
    .string({ error: 'File ids must be one list of comma-separated numbers' })
    .optional()
    .transform((value, context) => {
      if (value === undefined) return null;
      if (!ID_LIST.test(value)) {
        context.addIssue({ code: 'custom', message: ID_LIST_MESSAGE });
        return z.NEVER;
      }
      const ids = [...new Set(value.split(',').map(Number))];
      if (ids.some((id) => id === 0)) {
        context.addIssue({ code: 'custom', message: ID_LIST_MESSAGE });
        return z.NEVER;
      }
      if (ids.length > MAX_EXPORT_IDS) {
        context.addIssue({ code: 'custom', message: `At most ${MAX_EXPORT_IDS} files per export; export the whole folder instead` });
        return z.NEVER;
      }
      return ids;
    }),
});
export type ExportQuery = z.input<typeof exportQuery>;

/** Most unfinished uploads one listing returns (the most recently active). */
export const MAX_LISTED_UPLOADS = 500;

/** A resumable upload not (yet) turned into a file: the space it holds (docs/api.md). */
export const unfinishedUploadResponse = z.object({
  id: z.string(),
  filename: z.string(),
  relative_path: z.string(),
  /** Ciphertext bytes declared at creation. */
  upload_length: z.number(),
  /** Ciphertext bytes stored so far: what the upload holds on the server. */
  received_bytes: z.number(),
  created_at: z.number(),
  /** When bytes last arrived (ms since the epoch); the sweep removes it UPLOAD_ABANDON_HOURS after. */
  last_activity_at: z.number(),
});
export type UnfinishedUploadResponse = z.infer<typeof unfinishedUploadResponse>;
export const unfinishedUploadListResponse = z.array(unfinishedUploadResponse);

export const unfinishedUploadParams = z.object({ id: rowIdParam('Folder'), uploadId: z.string().regex(TUS_UPLOAD_ID_PATTERN) });
