// The Folder value of docs/api.md: times as ISO 8601 (UTC) strings, has_password instead of the
// hash, and the viewer's role in it.
import type { AccountFolder } from '../../db/repositories/index.ts';
import type { Folder as FolderResponse } from '../../../contract/folders.ts';

const iso = (time: number | null): string | null => (time === null ? null : new Date(time).toISOString());

export function toFolderResponse(folder: AccountFolder): FolderResponse {
  return {
    id: folder.id,
    title: folder.title,
    description: folder.description,
    creation_date: new Date(folder.creationDate).toISOString(),
    expiration_date: iso(folder.expirationDate),
    last_upload_time: iso(folder.lastUploadTime),
    is_active: folder.isActive,
    has_password: folder.linkPasswordHash !== null,
    require_email_verification: folder.requireEmailVerification,
    allowed_emails: folder.allowedEmails,
    perform_mime_check: folder.performMimeCheck,
    link_token: folder.linkToken,
    has_undownloaded_files: folder.hasUndownloadedFiles,
    storage_limit_bytes: folder.storageLimitBytes,
    file_limit: folder.fileLimit,
    retention_days: folder.retentionDays,
    used_bytes: folder.usedBytes,
    used_files: folder.usedFiles,
    my_role: folder.myRole,
    is_team: folder.currentKeyEpoch !== null,
  };
}
