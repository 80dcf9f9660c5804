// Download limits of a link (docs/api.md, "Download limits"). A link may allow each file to be
// downloaded by at most `maxDownloads` recipients (server/download-links/recipients.ts). A
// download counts when the recipient has been sent the whole file (whole-receipt.ts), so a probe,
// a one-byte range or a broken fetch costs nothing; ranged, resumed and repeated fetches by the
// same recipient add up to one download. A file past its limit, and a link whose every file is,
// answers like an expired link, except to a recipient already counted for that file (who may be
// fetching it again).
import type { DownloadLink, LinkedFile, Repositories } from '../db/repositories/index.ts';
import { LinkExpiredError } from './errors.ts';

/**
 * The link's files this recipient (null: a new one) may still fetch; LinkExpiredError when none
 * is left, so a used-up link is dead on every route before anything else is looked at.
 */
export async function fetchableFiles(repos: Repositories, link: DownloadLink, recipientHash: string | null): Promise<LinkedFile[]> {
  const files = await repos.downloadLinks.listFiles(link.id);
  const limit = link.maxDownloads;
  if (limit === null) return files;
  const fetched = recipientHash === null ? new Set<number>() : await repos.downloadLinks.fetchedBy(link.id, recipientHash);
  const left = files.filter((file) => file.downloadCount < limit || fetched.has(file.id));
  if (left.length === 0 && files.length > 0) throw new LinkExpiredError();
  return left;
}
