// Upload notifications of a folder (docs/api.md, "Upload notifications"): whether and how the
// admin is told of uploads by e-mail. Messages are written for people.
import { z } from 'zod';

export const NOTIFY_MODES = ['off', 'each', 'digest'] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];

/** GET and PUT /folders/{id}/notifications. */
export const notificationSettings = z.object({
  /** off: no e-mail; each: one per upload session once the uploader is quiet; digest: one per day at most. */
  mode: z.enum(NOTIFY_MODES, { error: `Notifications must be one of ${NOTIFY_MODES.join(', ')}` }),
  /** List the uploaded files' names and paths in the message. */
  include_file_names: z.boolean({ error: 'Include file names must be true or false' }),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;
