// What the streaming download service needs for each file of an opened link: the ciphertext
// route of the link, the name, plaintext size, IV and the key handle. Files whose key is not in
// the link are reported, never silently dropped.

import type { SharedFile } from '../../api/linksApi.ts';
import { uniqueEntryPaths, type FileKeyHandle } from '../../../workers/index.ts';
import type { LinkKeys } from './linkKeyImport.ts';

export interface LinkFileSource {
  url: string;
  name: string;
  plainSize: number;
  iv: string;
  key: FileKeyHandle;
}

export function linkFileUrl(linkToken: string, fileId: number): string {
  return `/api/download/${encodeURIComponent(linkToken)}/file/${fileId}`;
}

export function linkFileSource(linkToken: string, file: SharedFile, keys: LinkKeys): LinkFileSource | null {
  const key = keys.get(String(file.id));
  if (!key) return null;
  return { url: linkFileUrl(linkToken, file.id), name: file.original_filename, plainSize: file.file_size, iv: file.encryption_iv, key };
}

export interface LinkZipSources {
  sources: LinkFileSource[];
  /** Files of the link that have no key: they count as failed. */
  missingKeys: SharedFile[];
}

/**
 * The archive's entries in the link's order, named by the workers' one set of name rules
 * (uniqueEntryPaths): two files of a link may share a name (they can come from different
 * directories); a ZIP must not hold duplicates, so later ones get ' (2)', ' (3)'.
 */
export function linkZipSources(linkToken: string, files: readonly SharedFile[], keys: LinkKeys): LinkZipSources {
  const sources: LinkFileSource[] = [];
  const missingKeys: SharedFile[] = [];
  for (const file of files) {
    const source = linkFileSource(linkToken, file, keys);
    if (source) sources.push(source);
    else missingKeys.push(file);
  }
  const names = uniqueEntryPaths(sources.map((source) => source.name));
  return { sources: sources.map((source, index) => ({ ...source, name: names[index]! })), missingKeys };
}
