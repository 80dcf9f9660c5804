// The File System Access open dialogs in end-to-end specs (the upload side; fileSystemAccess.ts has
// the save side). A headless browser cannot click a native dialog, so `withOpfsOpenPickers`
// replaces only `window.showOpenFilePicker` / `window.showDirectoryPicker`: they answer with handles
// of files the spec first wrote into the origin-private file system (navigator.storage.getDirectory()),
// whose getFile() is real, whose permission calls answer 'granted', and which IndexedDB keeps like
// any handle. Everything after the dialog (the app's handle walk, the journal, one-click resume) is
// the app's own code. `withoutOpenPickers` removes both, as in Firefox. Both are init scripts: call
// them before the page loads.
import type { BrowserContext, Page } from '@playwright/test';

const MiB = 1024 * 1024;

const OPFS_OPEN_PICKERS = `(() => {
  const state = { files: [], folder: null, opened: 0 };
  window.__openPickers = state;
  const root = () => navigator.storage.getDirectory();
  async function resolve(path, kind) {
    let dir = await root();
    const parts = path.split('/').filter(Boolean);
    const last = parts.pop();
    for (const part of parts) dir = await dir.getDirectoryHandle(part);
    return kind === 'file' ? dir.getFileHandle(last) : dir.getDirectoryHandle(last);
  }
  window.showOpenFilePicker = async () => {
    state.opened += 1;
    if (state.files.length === 0) throw new DOMException('The user aborted a request.', 'AbortError');
    return Promise.all(state.files.map((path) => resolve(path, 'file')));
  };
  window.showDirectoryPicker = async () => {
    state.opened += 1;
    if (!state.folder) throw new DOMException('The user aborted a request.', 'AbortError');
    return resolve(state.folder, 'directory');
  };
})()`;

const NO_OPEN_PICKERS = `(() => {
  delete window.showOpenFilePicker;
  delete window.showDirectoryPicker;
  try { delete Window.prototype.showOpenFilePicker; delete Window.prototype.showDirectoryPicker; } catch {}
})()`;

export async function withOpfsOpenPickers(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(OPFS_OPEN_PICKERS);
}

export async function withoutOpenPickers(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(NO_OPEN_PICKERS);
}

/** What the next dialogs answer: these OPFS files for the open dialog, this OPFS folder for the folder dialog. */
export async function answerPickers(page: Page, answer: { files?: string[]; folder?: string }): Promise<void> {
  await page.evaluate(({ files, folder }) => {
    const state = (window as unknown as { __openPickers: { files: string[]; folder: string | null } }).__openPickers;
    state.files = files ?? [];
    state.folder = folder ?? null;
  }, answer);
}

/** How often the page opened one of the dialogs (since it loaded). */
export async function pickerOpenings(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __openPickers: { opened: number } }).__openPickers.opened);
}

/**
 * A test file's content, the same in node and in the page without sending it across: a random
 * 1 MiB seed repeated, each MiB stamped with its index in its first 4 bytes (so no two MiB are
 * equal and a misplaced record would not decrypt to the original).
 */
export function patternedContent(seed: Buffer, size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let offset = 0, index = 0; offset < size; offset += MiB, index++) {
    const length = Math.min(MiB, size - offset);
    seed.copy(out, offset, 0, length);
    if (length >= 4) out.writeUInt32BE(index, offset);
  }
  return out;
}

/**
 * Writes `patternedContent(seed, size)` to an OPFS path in the page (directories created), and
 * returns the file's lastModified. Writing again replaces the content and the date (a changed file).
 */
export async function writeOpfsFile(page: Page, path: string, seed: Buffer, size: number): Promise<number> {
  return page.evaluate(
    async ({ path, seedBase64, size, MiB }) => {
      const seedBytes = Uint8Array.from(atob(seedBase64), (c) => c.charCodeAt(0));
      let dir = await navigator.storage.getDirectory();
      const parts = path.split('/').filter(Boolean);
      const name = parts.pop()!;
      for (const part of parts) dir = await dir.getDirectoryHandle(part, { create: true });
      const handle = await dir.getFileHandle(name, { create: true });
      const writable = await handle.createWritable();
      for (let offset = 0, index = 0; offset < size; offset += MiB, index++) {
        const chunk = seedBytes.slice(0, Math.min(MiB, size - offset));
        if (chunk.length >= 4) new DataView(chunk.buffer).setUint32(0, index);
        await writable.write(chunk);
      }
      await writable.close();
      return (await handle.getFile()).lastModified;
    },
    { path, seedBase64: seed.toString('base64'), size, MiB },
  );
}

/** Removes an OPFS file (a file that vanished since it was picked). */
export async function removeOpfsFile(page: Page, path: string): Promise<void> {
  await page.evaluate(async (p) => {
    let dir = await navigator.storage.getDirectory();
    const parts = p.split('/').filter(Boolean);
    const name = parts.pop()!;
    for (const part of parts) dir = await dir.getDirectoryHandle(part);
    await dir.removeEntry(name);
  }, path);
}
