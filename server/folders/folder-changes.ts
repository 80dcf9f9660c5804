// Turns a validated create/update payload into what the folders repository stores, applying the
// rules of folder-rules.ts. The link password is hashed here (argon2id, like login passwords);
// the plain password goes no further. A new folder whose payload names no limits or retention gets
// the server's defaults (FolderDefaults); null names "no limit" (and "keep files") explicitly.
import { hashPassword } from '../auth/passwords.ts';
import type { FolderDefaults } from '../config.ts';
import type { Folder, FolderChanges, NewFolder } from '../db/repositories/index.ts';
import { linkPasswordChange, normalizeAllowedEmails, resolveExpiration } from './folder-rules.ts';

/** The payload after schema validation (expiration_date already parsed to epoch ms). */
export interface FolderPayload {
  title: string;
  description?: string | null | undefined;
  require_email_verification?: boolean | undefined;
  allowed_emails?: string[] | null | undefined;
  perform_mime_check?: boolean | undefined;
  expires_in_days?: number | null | undefined;
  expiration_date?: number | null | undefined;
  link_password?: string | undefined;
  is_active?: boolean | undefined;
  storage_limit_bytes?: number | null | undefined;
  file_limit?: number | null | undefined;
  retention_days?: number | null | undefined;
}

export type PasswordHasher = (password: string) => Promise<string>;

/** Changes for an update: fields the payload leaves out keep their stored values. */
export async function folderChanges(
  payload: FolderPayload,
  now: number,
  hash: PasswordHasher = hashPassword,
): Promise<FolderChanges> {
  const changes: FolderChanges = { title: payload.title };
  if (payload.description !== undefined) changes.description = payload.description;
  if (payload.require_email_verification !== undefined) {
    changes.requireEmailVerification = payload.require_email_verification;
  }
  const allowedEmails = normalizeAllowedEmails(payload.allowed_emails);
  if (allowedEmails !== undefined) changes.allowedEmails = allowedEmails;
  if (payload.perform_mime_check !== undefined) changes.performMimeCheck = payload.perform_mime_check;
  if (payload.is_active !== undefined) changes.isActive = payload.is_active;
  const expiration = resolveExpiration(
    { expiresInDays: payload.expires_in_days, expirationDate: payload.expiration_date },
    now,
  );
  if (expiration !== undefined) changes.expirationDate = expiration;
  const password = linkPasswordChange(payload.link_password);
  if (password.action === 'remove') changes.linkPasswordHash = null;
  if (password.action === 'set') changes.linkPasswordHash = await hash(password.password);
  if (payload.storage_limit_bytes !== undefined) changes.storageLimitBytes = payload.storage_limit_bytes;
  if (payload.file_limit !== undefined) changes.fileLimit = payload.file_limit;
  if (payload.retention_days !== undefined) changes.retentionDays = payload.retention_days;
  return changes;
}

/**
 * A new folder: what the payload leaves out takes the defaults (no password, MIME check on, active,
 * no expiry; the server's limits and retention).
 */
export async function newFolder(
  payload: FolderPayload,
  context: { ownerId: number; linkToken: string; now: number; defaults: FolderDefaults },
  hash: PasswordHasher = hashPassword,
): Promise<NewFolder> {
  const changes = await folderChanges(payload, context.now, hash);
  return {
    ownerId: context.ownerId,
    title: payload.title,
    description: changes.description ?? null,
    linkToken: context.linkToken,
    linkPasswordHash: changes.linkPasswordHash ?? null,
    requireEmailVerification: changes.requireEmailVerification ?? false,
    allowedEmails: changes.allowedEmails ?? null,
    performMimeCheck: changes.performMimeCheck ?? true,
    isActive: changes.isActive ?? true,
    expirationDate: changes.expirationDate ?? null,
    creationDate: context.now,
    storageLimitBytes: changes.storageLimitBytes !== undefined ? changes.storageLimitBytes : context.defaults.storageLimitBytes,
    fileLimit: changes.fileLimit !== undefined ? changes.fileLimit : context.defaults.fileLimit,
    retentionDays: changes.retentionDays !== undefined ? changes.retentionDays : context.defaults.retentionDays,
  };
}

/**
 * The settings an update changes against the folder as stored, by name, for the activity log (the
 * edit form sends every field on each save, so the payload alone says nothing). A link password
 * set counts always (its hash is salted: the same password cannot be told apart), a removal only
 * when there was one; `linkPassword` names it, never its value or hash.
 */
export function changedSettings(before: Folder, changes: FolderChanges): string[] {
  const changed: string[] = [];
  for (const [field, value] of Object.entries(changes) as Array<[keyof FolderChanges, unknown]>) {
    if (field === 'linkPasswordHash') {
      if (value !== null || before.linkPasswordHash !== null) changed.push('linkPassword');
    } else if (!sameSetting(before[field], value)) {
      changed.push(field);
    }
  }
  return changed.sort();
}

function sameSetting(stored: unknown, next: unknown): boolean {
  if (Array.isArray(stored) && Array.isArray(next)) {
    const [a, b] = [[...stored].sort(), [...next].sort()];
    return a.length === b.length && a.every((item, index) => item === b[index]);
  }
  return stored === next;
}
