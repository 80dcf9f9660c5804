// Folder display status (spec section 4): Inactive when switched off; Expired when its expiration
// date has passed; otherwise Active. Inactive wins over Expired; an unparsable date counts as Active.
import type { Folder } from '../../api/types.ts';

export type FolderStatus = 'Active' | 'Inactive' | 'Expired';

export function folderStatus(folder: Pick<Folder, 'is_active' | 'expiration_date'>, now: number = Date.now()): FolderStatus {
  if (!folder.is_active) return 'Inactive';
  if (folder.expiration_date) {
    const expires = Date.parse(folder.expiration_date);
    if (!Number.isNaN(expires) && expires < now) return 'Expired';
  }
  return 'Active';
}
