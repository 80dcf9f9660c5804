// Opening an upload link: the folder behind the token, if the link may be used now. Unknown,
// inactive and expired links all get the same LINK_INVALID answer on every route, so probing
// tokens (or a link that was switched off) reveals nothing about the folder.
import type { UploadLinkFolder, Repositories } from '../db/repositories/index.ts';
import { UploadError } from './errors.ts';

// Link tokens are 256-bit base64url strings; anything else cannot name a folder.
const LINK_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export function isUsable(folder: UploadLinkFolder, now: number): boolean {
  return folder.isActive && (folder.expirationDate === null || folder.expirationDate > now);
}

export async function openUploadLink(repos: Repositories, linkToken: string, now: number): Promise<UploadLinkFolder> {
  if (!LINK_TOKEN.test(linkToken)) throw new UploadError('LINK_INVALID');
  const folder = await repos.folders.findByLinkToken(linkToken);
  if (!folder || !isUsable(folder, now)) throw new UploadError('LINK_INVALID');
  return folder;
}
