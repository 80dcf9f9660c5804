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
}

export function describeLink(link: DownloadLink, locale?: string): LinkDisplay {
  return {
    created: formatDateTime(link.creation_date, locale),
    access: link.has_password ? LINK_LABELS.passwordProtected : LINK_LABELS.public,
    validUntil: link.expiration_date ? formatDateTime(link.expiration_date, locale) : NEVER,
    fileCount: link.file_count === 1 ? '1 file' : `${link.file_count} files`,
  };
}
