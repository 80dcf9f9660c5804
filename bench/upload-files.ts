// Inputs of the upload benchmark, generated once under .tmp/bench and reused: large files of
// incompressible bytes (shared with bench:crypto) and a folder of small files in subfolders.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export { ensurePlainFile } from '../e2e/crypto-harness/test-files.ts';

/** `count` files of 1 KiB to 63 KiB (deterministic), 100 per subfolder; returns the folder. */
export async function ensureSmallFiles(root: string, count: number): Promise<{ dir: string; bytes: number }> {
  const dir = join(root, `small-${count}`);
  const sizeOf = (i: number) => 1024 * (1 + (createHash('sha256').update(`size:${i}`).digest()[0]! % 63));
  const bytes = Array.from({ length: count }, (_, i) => sizeOf(i)).reduce((a, b) => a + b, 0);
  const existing = await countFiles(dir);
  if (existing === count) return { dir, bytes };
  await rm(dir, { recursive: true, force: true });
  for (let i = 0; i < count; i++) {
    const sub = join(dir, `part-${String(Math.floor(i / 100)).padStart(2, '0')}`);
    if (i % 100 === 0) await mkdir(sub, { recursive: true });
    const size = sizeOf(i);
    const content = Buffer.alloc(size);
    for (let offset = 0; offset < size; offset += 32) createHash('sha256').update(`${i}:${offset}`).digest().copy(content, offset);
    await writeFile(join(sub, `file-${String(i).padStart(4, '0')}.bin`), content);
  }
  return { dir, bytes };
}

async function countFiles(dir: string): Promise<number> {
  try {
    let n = 0;
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) n++;
    return n;
  } catch {
    return -1;
  }
}
