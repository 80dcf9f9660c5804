// Request and response schemas of the admin file routes (docs/api.md, "Files").
import { z } from 'zod';
import { rowId, rowIdParam } from '../stored-values.ts';

/** Most ids one delete request may name. */
export const MAX_DELETE_IDS = 10_000;

export const fileId = rowId('File');

export const fileIdParams = z.object({ fileId: rowIdParam('File') });

export const fileResponse = z.object({
  id: z.number(),
  original_filename: z.string(),
  stored_filename: z.string(),
  relative_path: z.string(),
  file_size: z.number(),
  file_hash: z.string(),
  encrypted_key: z.string(),
  encryption_iv: z.string(),
  upload_time: z.string(),
  last_downloaded_admin: z.string().nullable(),
});

export const fileListResponse = z.array(fileResponse);

export const deleteFilesBody = z.object({
  file_ids: z
    .array(fileId, { error: 'File ids must be a list' })
    .min(1, 'Select at least one file')
    .max(MAX_DELETE_IDS, `At most ${MAX_DELETE_IDS} files per request`),
});

export const deleteFilesResponse = z.object({
  deleted: z.number(),
  errors: z.array(z.object({ file_id: z.number(), detail: z.string() })),
});
