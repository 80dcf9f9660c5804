// A file row as the admin's file list returns it (contract/files.ts, the File record): times as
// ISO 8601 (UTC) strings.
import type { FileRecord as FileResponse } from '../../contract/files.ts';
import type { FileRecord } from '../db/repositories/index.ts';

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
    key_epoch: file.keyEpoch ?? null,
  };
}
