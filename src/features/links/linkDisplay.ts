// How a download link reads in the 'Active Download Links' list (spec section 2): created
// ('Erstellt'), password state, valid until ('Gültig bis' or 'Never'), file count.

import { formatDateTime, neverText } from '../../lib/folderDisplay.ts';
import type { DownloadLink } from '../../api/linksApi.ts';
import { t, textsOf } from '../../i18n/language.ts';
import { LINK_MESSAGES as messages } from './messages.ts';

export const LINK_LABELS = textsOf({
  created: messages.created,
  validUntil: messages.validUntil,
  passwordProtected: messages.passwordProtected,
  public: messages.public,
  loading: messages.loading,
  empty: messages.empty,
  limitReached: messages.limitReached,
  notDownloaded: messages.notDownloaded,
});

/** The address of a link without its keys: {origin}/download/{link_token}. */
export function downloadLinkAddress(origin: string, linkToken: string): string {
  return `${origin}/download/${linkToken}`;
}

export interface LinkDisplay {
  created: string;
  access: string;
  validUntil: string;
  fileCount: string;
  /** '3 downloads per file', or null for a link without a limit. */
  downloadLimit: string | null;
  /** Every file has reached the limit: the link answers as expired. */
  limitReached: boolean;
  /** Per file, in the link's order: its name and how often (and when last) it was downloaded. */
  files: Array<{ name: string; downloads: string }>;
}

const times = (count: number) => t(messages.downloads, { count });
// The numbers as plain digits, as the list always showed them (no thousands separator).
const ofLimit = (count: number, limit: number) => t(messages.downloadsOfLimit, { count: String(count), limit: String(limit) });

function fileDownloads(count: number, last: string | null, limit: number | null, locale?: string): string {
  if (count === 0) return limit === null ? LINK_LABELS.notDownloaded : ofLimit(0, limit);
  const counted = limit === null ? times(count) : ofLimit(count, limit);
  return last === null ? counted : t(messages.lastDownload, { downloads: counted, date: formatDateTime(last, locale) });
}

export function describeLink(link: DownloadLink, locale?: string): LinkDisplay {
  return {
    created: formatDateTime(link.creation_date, locale),
    access: link.has_password ? LINK_LABELS.passwordProtected : LINK_LABELS.public,
    validUntil: link.expiration_date ? formatDateTime(link.expiration_date, locale) : neverText(),
    fileCount: t(messages.fileCount, { count: link.file_count }),
    downloadLimit: link.max_downloads === null ? null : t(messages.perFileLimit, { count: link.max_downloads }),
    limitReached:
      link.max_downloads !== null &&
      link.file_downloads.length > 0 &&
      link.file_downloads.every((file) => file.download_count >= link.max_downloads!),
    files: link.files.map((name, index) => {
      const counted = link.file_downloads[index];
      return { name, downloads: fileDownloads(counted?.download_count ?? 0, counted?.last_download_at ?? null, link.max_downloads, locale) };
    }),
  };
}
