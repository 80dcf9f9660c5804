// Saves the backup file through the browser's download (an object URL on a temporary link). The
// file holds the private key only in its password-wrapped form.

import { backupFileName, buildBackupFile, serialiseBackupFile, BACKUP_MIME_TYPE, type KeyData } from './backupFile.ts';

export function downloadKeyBackup(username: string, keyData: KeyData, now: Date = new Date()): string {
  const fileName = backupFileName(username, now);
  const blob = new Blob([serialiseBackupFile(buildBackupFile(username, keyData, now))], { type: BACKUP_MIME_TYPE });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled; the download keeps its own reference.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return fileName;
}
