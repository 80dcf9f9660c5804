// Admin folders (docs/api.md, "Folders"). Messages are what the client shows next to a field, so
// they are written for people.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, rowIdParam, withoutNul } from './common.ts';
import { teamRole } from './team-folders.ts';

export const TITLE_MAX_LENGTH = 255;
export const DESCRIPTION_MAX_LENGTH = 5000;
export const MAX_ALLOWED_EMAILS = 500;
export const MAX_EXPIRES_IN_DAYS = 36_500;
/** 1 PiB: any real disk, and still an exact JavaScript number. */
export const MAX_STORAGE_LIMIT_BYTES = 2 ** 50;
export const MAX_FILE_LIMIT = 100_000_000;
export const MAX_RETENTION_DAYS = 36_500;

export const FOLDER_SORT_KEYS = ['title', 'creation_date', 'expiration_date', 'last_upload_time'] as const;
export type FolderSortKey = (typeof FOLDER_SORT_KEYS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

// A date-time with an explicit offset (what Date.prototype.toISOString produces), so the server
// never has to guess the client's time zone. Calendar fields are checked too, because Date.parse
// silently rolls "February 31" over into March.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;
const INVALID_DATE = 'Invalid date format: use an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z';

function parseIsoDateTime(value: string): number | null {
  const match = ISO_DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  const valid =
    month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour! <= 23 && minute! <= 59 &&
    second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
  if (!valid) return null;
  const time = Date.parse(value.trim());
  return Number.isNaN(time) ? null : time;
}

const emailFormat = z.email();

const expirationDate = z
  .string({ error: INVALID_DATE })
  .transform((value, context) => {
    const time = parseIsoDateTime(value);
    if (time === null) {
      context.addIssue({ code: 'custom', message: INVALID_DATE });
      return z.NEVER;
    }
    return time;
  });

const allowedEmails = z
  .array(z.string({ error: 'Each allowed e-mail must be text' }), { error: 'Allowed e-mails must be a list' })
  .max(MAX_ALLOWED_EMAILS, `At most ${MAX_ALLOWED_EMAILS} allowed e-mails`)
  .superRefine((list, context) => {
    // One message naming the address, on the field itself (not on a list index).
    const bad = list.map((item) => item.trim()).find((item) => item !== '' && !emailFormat.safeParse(item).success);
    if (bad !== undefined) context.addIssue({ code: 'custom', message: `Invalid e-mail address: ${bad}` });
  });

const description = withoutNul(
  z.string({ error: 'Description must be text' }).max(DESCRIPTION_MAX_LENGTH, `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`),
  'Description',
).transform((value) => (value.trim() === '' ? null : value));

const flag = (field: string) => z.boolean({ error: `${field} must be true or false` });

/** A positive whole number up to `max`, or null for "no limit"; absent keeps (or, on create, takes the server's default). */
const limit = (field: string, max: number) =>
  z
    .number({ error: `${field} must be a number or null (no limit)` })
    .int(`${field} must be a whole number`)
    .min(1, `${field} must be at least 1 (or null for no limit)`)
    .max(max, `${field} must be at most ${max}`)
    .nullable()
    .optional();

/**
 * POST /folders/ and PUT /folders/{id} (the same shape, title included). On update an absent field
 * keeps its value. Parsed, the expiry is a time in milliseconds and a blank description is null.
 */
export const folderPayload = z.object({
  title: withoutNul(
    z
      .string({ error: 'Title must be text' })
      .trim()
      .min(1, 'Title is required')
      .max(TITLE_MAX_LENGTH, `Title must be at most ${TITLE_MAX_LENGTH} characters`),
    'Title',
  ),
  description: description.nullable().optional(),
  require_email_verification: flag('Require e-mail verification').optional(),
  allowed_emails: allowedEmails.nullable().optional(),
  perform_mime_check: flag('Perform MIME check').optional(),
  expires_in_days: z
    .number({ error: 'Days must be a number' })
    .int('Days must be a whole number')
    .min(1, 'Days must be at least 1')
    .max(MAX_EXPIRES_IN_DAYS, `Days must be at most ${MAX_EXPIRES_IN_DAYS}`)
    .nullable()
    .optional(),
  expiration_date: expirationDate.nullable().optional(),
  /** Non-empty sets the upload link password, "" removes it, absent keeps it. */
  link_password: z
    .string({ error: 'Link password must be text' })
    .max(MAX_PASSWORD_LENGTH, `Link password must be at most ${MAX_PASSWORD_LENGTH} characters`)
    .optional(),
  is_active: flag('Active').optional(),
  /** Beyond the spec: the plaintext bytes its files and unfinished uploads may hold. */
  storage_limit_bytes: limit('Storage limit', MAX_STORAGE_LIMIT_BYTES),
  /** Files and unfinished uploads it may hold. */
  file_limit: limit('File limit', MAX_FILE_LIMIT),
  /** Delete files this many days after their upload (null: keep them until deleted). */
  retention_days: limit('Retention', MAX_RETENTION_DAYS),
});
/** What a client sends (the expiry as an ISO string). */
export type FolderPayload = z.input<typeof folderPayload>;

export const folderIdParams = z.object({ id: rowIdParam('Folder') });

/** GET /folders/ query. */
export const folderListQuery = z.object({
  sort_by: z
    .enum(FOLDER_SORT_KEYS, { error: `Sort key must be one of ${FOLDER_SORT_KEYS.join(', ')}` })
    .default('creation_date'),
  sort_order: z.enum(SORT_ORDERS, { error: 'Sort order must be asc or desc' }).default('desc'),
});
/** The client always names both. */
export type FolderListQuery = z.output<typeof folderListQuery>;

/** The Folder value. Only these fields ever leave the server (no password hash). Times are ISO 8601 UTC. */
export const folderResponse = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  creation_date: z.string(),
  expiration_date: z.string().nullable(),
  last_upload_time: z.string().nullable(),
  is_active: z.boolean(),
  has_password: z.boolean(),
  require_email_verification: z.boolean(),
  /** null: any verified e-mail address may upload. */
  allowed_emails: z.array(z.string()).nullable(),
  perform_mime_check: z.boolean(),
  link_token: z.string(),
  has_undownloaded_files: z.boolean(),
  /** null: no limit. */
  storage_limit_bytes: z.number().nullable(),
  /** null: no limit. */
  file_limit: z.number().nullable(),
  /** null: files are kept until deleted. */
  retention_days: z.number().nullable(),
  /** Plaintext bytes its files and unfinished uploads hold now (counted against storage_limit_bytes). */
  used_bytes: z.number(),
  /** Its files and unfinished uploads now (counted against file_limit). */
  used_files: z.number(),
  /** The signed-in account's role in it: `owner` for its own folders (docs/team-folders.md). */
  my_role: teamRole,
  /** Shared with a team (files sealed to the folder's epoch keys); false: a personal folder. */
  is_team: z.boolean(),
});
export type Folder = z.infer<typeof folderResponse>;

export const folderListResponse = z.array(folderResponse);
