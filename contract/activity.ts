// The activity log (docs/api.md "Activity log"): what happened in an admin's account, newest first,
// filtered by folder, kind and time, paged by seq, exported as CSV or JSON.
import { z } from 'zod';

export const ACTIVITY_KINDS = [
  'sign_in.succeeded',
  'sign_in.failed',
  'sign_in.second_factor_failed',
  'public_key.stored',
  'private_key.stored',
  'password.changed',
  'profile.updated',
  'two_factor.enabled',
  'two_factor.disabled',
  'passkey.added',
  'passkey.renamed',
  'passkey.removed',
  'passkey.failed',
  'folder.created',
  'folder.updated',
  'folder.deleted',
  'folder.expired',
  'files.uploaded',
  'file.downloaded',
  'files.deleted',
  'files.retention_deleted',
  'link.created',
  'link.deleted',
  'link.downloaded',
  'activity.pruned',
  'account.joined',
  'member.invited',
  'member.disabled',
  'member.enabled',
  'team.shared',
  'team.changed',
  'org_recovery.enabled',
  'org_recovery.disabled',
  'org_recovery.admin_copy_granted',
  'org_recovery.copy_stored',
  'org_recovery.restored',
  'member.access_restored',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const MAX_ACTIVITY_PAGE = 200;

const isoTime = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'Use an ISO 8601 date-time, e.g. 2030-01-31T12:00:00Z')
  .transform((value) => Date.parse(value));

/** GET /activity and /activity/export query. */
export const activityQuery = z.object({
  folder_id: z.coerce.number({ error: 'Folder id must be a number' }).int().positive().optional(),
  /** Comma-separated kinds. */
  kind: z
    .string()
    .transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item !== ''))
    .pipe(z.array(z.enum(ACTIVITY_KINDS, { error: `Kinds must be among ${ACTIVITY_KINDS.join(', ')}` })))
    .optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  before_seq: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(MAX_ACTIVITY_PAGE, `At most ${MAX_ACTIVITY_PAGE} entries per page`).default(50),
});
export type ActivityQuery = z.input<typeof activityQuery>;

export const activityExportQuery = activityQuery.omit({ before_seq: true, limit: true }).extend({
  format: z.enum(['csv', 'json'], { error: 'Format must be csv or json' }),
});

export const activityEntry = z.object({
  seq: z.number(),
  at: z.string(),
  kind: z.string(),
  folder_id: z.number().nullable(),
  details: z.record(z.string(), z.unknown()),
  /** HMAC of the client's address: equal values mean the same address, the address itself is not kept. */
  ip_hash: z.string().nullable(),
  hash: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntry>;

export const activityPage = z.object({
  entries: z.array(activityEntry),
  /** Pass as before_seq for the next (older) page; null when there is none. */
  next_before_seq: z.number().nullable(),
});
export type ActivityPage = z.infer<typeof activityPage>;

/** GET /activity/verify. */
export const activityVerification = z.object({
  ok: z.boolean(),
  entries: z.number(),
  /** The first entry that does not verify (edited, removed or out of order); null when all do. */
  first_broken_seq: z.number().nullable(),
});
