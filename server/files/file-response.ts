// The File record of docs/api.md (spec section 3), as the admin's file list returns it: times as
// ISO 8601 (UTC) strings. The wrapped key and IV are included so the admin's browser can re-wrap
// the keys of selected files for a download link without fetching each file.
import type { FileRecord } from '../db/repositories/index.ts';

export interface FileResponse {
  id: number;
  original_filename: string;
  stored_filename: string;
  relative_path: string;
  file_size: number;
  file_hash: string;
  encrypted_key: string;
  encryption_iv: string;
  upload_time: string;
  last_downloaded_admin: string | null;
}

export function toFileResponse(file: FileRecord): FileResponse {
  return {
    id: file.id,
    original_filename: file.originalFilename,
    stored_filename: file.storedFilename,
    relative_path: file.relativePath,
    file_size: file.fileSize,
    file_hash: file.fileHash,
    encrypted_key: file.encryptedKey,
    encryption_iv: file.encryptionIv,
    upload_time: new Date(file.uploadTime).toISOString(),
    last_downloaded_admin: file.lastDownloadedAdmin === null ? null : new Date(file.lastDownloadedAdmin).toISOString(),
  };
}
