// The worker's refusal of a folder's signed member list (TEAM_MANIFEST_INVALID, docs/team-folders.md):
// told by its code, never by its message. The pool's error carries a reason code and, when the
// chain itself held but the server listed members it does not name, those members.

export interface ManifestRefusal {
  reason: string;
  unlisted: { userId: number; username: string }[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function unlistedOf(value: unknown): { userId: number; username: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is { userId: number; username: string } => isRecord(item) && typeof item.userId === 'number' && typeof item.username === 'string',
  );
}

/** The refusal, or null when `error` is something else (network, a locked key). */
export function manifestRefusal(error: unknown): ManifestRefusal | null {
  if (!isRecord(error)) return null;
  const refused = error.code === 'TEAM_MANIFEST_INVALID' || error.name === 'TeamManifestInvalidError';
  if (!refused) return null;
  return { reason: typeof error.reason === 'string' ? error.reason : 'TEAM_MANIFEST_INVALID', unlisted: unlistedOf(error.unlisted) };
}
