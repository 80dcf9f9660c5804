// Storage of the signed-in admin (docs/api.md, "Storage"): what their folders hold together, the
// free space of the disk store, and the limits new folders get.
import { z } from 'zod';

export const storageOverviewResponse = z.object({
  /** Plaintext bytes of the admin's files and unfinished uploads, over all folders. */
  used_bytes: z.number(),
  /** The admin's files and unfinished uploads, over all folders. */
  used_files: z.number(),
  folders: z.number(),
  /** `disk`: DATA_DIR/blobs on this machine; `s3`: a bucket (no local free space to show). */
  store: z.enum(['disk', 's3']),
  /** Free bytes on the disk store's file system (shared by every admin); null with S3. */
  free_bytes: z.number().nullable(),
  /** The part of the free space uploads never use (STORAGE_RESERVE_MB); null with S3. */
  reserve_bytes: z.number().nullable(),
  /** What a new folder gets when its form names no limits (null: no limit, files kept). */
  folder_defaults: z.object({
    storage_limit_bytes: z.number().nullable(),
    file_limit: z.number().nullable(),
    retention_days: z.number().nullable(),
  }),
});
export type StorageOverview = z.infer<typeof storageOverviewResponse>;
