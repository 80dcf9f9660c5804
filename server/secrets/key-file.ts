// A per-install secret key kept in a file under DATA_DIR, for the single-process default where no
// setting provides it: created on first use with 256 random bits and mode 0600. Several processes
// starting at once on the same DATA_DIR all end up with the one key that was linked first.
// A setting gives the key as its text, or as `base64url:<a key file's content>`, which moves a key
// file into a setting without changing the key (several processes on PostgreSQL need the setting).
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

const FILE_CONTENT_PREFIX = 'base64url:';

/** The key a setting gives: a key file's content after `base64url:`, otherwise the text's bytes. */
export function keyFromSetting(value: string): Buffer {
  return value.startsWith(FILE_CONTENT_PREFIX) ? Buffer.from(value.slice(FILE_CONTENT_PREFIX.length), 'base64url') : Buffer.from(value, 'utf8');
}

export async function loadOrCreateKeyFile(dataDir: string, fileName: string): Promise<Buffer> {
  const file = path.join(dataDir, fileName);
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.writeFile(randomBytes(32).toString('base64url'));
    await handle.sync();
  } finally {
    await handle.close();
  }
  // link() creates the name only if it does not exist yet (a rename would replace a key another
  // process just created): whoever links first wins, and everyone reads the winner's key back.
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(partial);
  }
  return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
}
