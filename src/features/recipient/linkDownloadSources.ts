// What the streaming download service needs for each file of an opened link: the ciphertext
// route of the link, the name, plaintext size, IV and the key handle. Files whose key is not in
// the link are reported, never silently dropped.

import type { SharedFile } from '../../api/linksApi.ts';
import type { FileKeyHandle } from '../../../workers/index.ts';
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
 * The archive's entries in the link's order. Two files of a link may share a name (they can come
 * from different directories); a ZIP must not hold duplicates, so later ones get ' (2)', ' (3)'.
 */
export function linkZipSources(linkToken: string, files: readonly SharedFile[], keys: LinkKeys): LinkZipSources {
  const sources: LinkFileSource[] = [];
  const missingKeys: SharedFile[] = [];
  const used = new Set<string>();
  for (const file of files) {
    const source = linkFileSource(linkToken, file, keys);
    if (!source) {
      missingKeys.push(file);
      continue;
    }
    sources.push({ ...source, name: uniqueName(source.name, used) });
  }
  return { sources, missingKeys };
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
  used.add(candidate.toLowerCase());
  return candidate;
}
