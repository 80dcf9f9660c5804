// When retention deletes a file (server/files/retention.ts deletionDue): its upload time plus the
// folder's days. The sweep runs hourly (UPLOAD_SWEEP_INTERVAL_MINUTES), so the file goes within
// that time after this moment.

const DAY_MS = 86_400_000;

/** The moment the file is due for deletion (ISO 8601), or null when the folder keeps files. */
export function deletionDue(uploadTime: string, retentionDays: number | null): string | null {
  if (retentionDays === null) return null;
  const uploaded = Date.parse(uploadTime);
  return Number.isNaN(uploaded) ? null : new Date(uploaded + retentionDays * DAY_MS).toISOString();
}
