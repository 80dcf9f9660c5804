// How a download link reads in the 'Active Download Links' list (spec section 2): created
// ('Erstellt'), password state, valid until ('Gültig bis' or 'Never'), file count.

import { formatDateTime, NEVER } from '../../lib/folderDisplay.ts';
import type { DownloadLink } from '../../api/linksApi.ts';

export const LINK_LABELS = {
  created: 'Erstellt',
  validUntil: 'Gültig bis',
  passwordProtected: 'Password Protected',
  public: 'Public (No Password)',
  loading: 'Loading links...',
  empty: 'No active download links for this folder.',
  limitReached: 'Download limit reached',
  notDownloaded: 'not downloaded yet',
} as const;

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

const times = (count: number) => (count === 1 ? '1 download' : `${count} downloads`);

function fileDownloads(count: number, last: string | null, limit: number | null, locale?: string): string {
  if (count === 0) return limit === null ? LINK_LABELS.notDownloaded : `0 of ${limit} downloads`;
  const counted = limit === null ? times(count) : `${count} of ${limit} downloads`;
  return last === null ? counted : `${counted}, last ${formatDateTime(last, locale)}`;
}

export function describeLink(link: DownloadLink, locale?: string): LinkDisplay {
  return {
    created: formatDateTime(link.creation_date, locale),
    access: link.has_password ? LINK_LABELS.passwordProtected : LINK_LABELS.public,
    validUntil: link.expiration_date ? formatDateTime(link.expiration_date, locale) : NEVER,
    fileCount: link.file_count === 1 ? '1 file' : `${link.file_count} files`,
    downloadLimit: link.max_downloads === null ? null : `${times(link.max_downloads)} per file`,
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
