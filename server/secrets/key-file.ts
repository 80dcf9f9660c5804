// A per-install secret key kept in a file under DATA_DIR, for the single-process default where no
// setting provides it: created on first use with 256 random bits and mode 0600. Several processes
// starting at once on the same DATA_DIR all end up with the one key that was linked first.
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

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
