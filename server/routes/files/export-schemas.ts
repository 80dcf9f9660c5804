// The query of the export route (docs/api.md, "Export"). The ids travel in the URL because the
// browser starts the download by navigating to it; the cap keeps that URL well inside what servers
// and proxies accept (a request line of about 8 KB).
import { z } from 'zod';

/** Most ids one export URL may name; a larger selection is exported as the whole folder or in parts. */
export const MAX_EXPORT_IDS = 500;

const ID_LIST = /^\d{1,15}(,\d{1,15})*$/;

export const exportQuery = z.object({
  file_ids: z
    .string({ error: 'File ids must be one list of comma-separated numbers' })
    .optional()
    .transform((value, context) => {
      if (value === undefined) return null;
      if (!ID_LIST.test(value)) {
        context.addIssue({ code: 'custom', message: 'File ids must be comma-separated positive whole numbers' });
        return z.NEVER;
      }
      const ids = [...new Set(value.split(',').map(Number))];
      if (ids.some((id) => id === 0)) {
        context.addIssue({ code: 'custom', message: 'File ids must be comma-separated positive whole numbers' });
        return z.NEVER;
      }
      if (ids.length > MAX_EXPORT_IDS) {
        context.addIssue({ code: 'custom', message: `At most ${MAX_EXPORT_IDS} files per export; export the whole folder instead` });
        return z.NEVER;
      }
      return ids;
    }),
});
