/**
 * '(Dup)' marking (spec section 2): a file whose content hash repeats. The earliest upload of a
 * content is the original; every later file with the same hash is a duplicate.
 */
import type { FileRecord } from '../../api/filesApi.ts';

export function duplicateFileIds(files: readonly FileRecord[]): Set<number> {
  const byHash = new Map<string, FileRecord[]>();
  for (const file of files) {
    const hash = file.file_hash.toLowerCase();
    const group = byHash.get(hash) ?? [];
    group.push(file);
    byHash.set(hash, group);
  }
  const duplicates = new Set<number>();
  for (const group of byHash.values()) {
    if (group.length < 2) continue;
    const [, ...later] = [...group].sort((a, b) => Date.parse(a.upload_time) - Date.parse(b.upload_time) || a.id - b.id);
    for (const file of later) duplicates.add(file.id);
  }
  return duplicates;
}
