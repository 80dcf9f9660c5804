// The File System Access API in end-to-end specs. A headless browser cannot click a native save
// or folder dialog, so `withOpfsPickers` replaces only the two pickers: they answer with handles of
// the origin-private file system (navigator.storage.getDirectory()), whose writables are the real
// ones, and can be told to act as if the user cancelled. `withoutFileSystemAccess` removes the
// pickers, as in Firefox: the app then uses the service worker's download, as the specs that check
// the browser's download event expect. Both are init scripts: call them before the page loads.
import type { BrowserContext, Page } from '@playwright/test';

/** Where the fake save dialog puts files (an OPFS directory). */
export const SAVED_FILES_DIR = 'saved-files';

const OPFS_PICKERS = `(() => {
  const state = { cancelNext: 0, picked: [], reuseDirectory: null };
  window.__opfsPickers = state;
  const root = () => navigator.storage.getDirectory();
  const cancelled = () => new DOMException('The user aborted a request.', 'AbortError');
  window.showSaveFilePicker = async (options = {}) => {
    if (state.cancelNext > 0) { state.cancelNext -= 1; throw cancelled(); }
    const directory = await (await root()).getDirectoryHandle('${SAVED_FILES_DIR}', { create: true });
    const name = options.suggestedName || 'download';
    state.picked.push('${SAVED_FILES_DIR}/' + name);
    return directory.getFileHandle(name, { create: true });
  };
  window.showDirectoryPicker = async () => {
    if (state.cancelNext > 0) { state.cancelNext -= 1; throw cancelled(); }
    const name = state.reuseDirectory ?? 'picked-' + Date.now() + '-' + Math.random().toString(36).slice(2, 8);
    state.picked.push(name);
    return (await root()).getDirectoryHandle(name, { create: true });
  };
})()`;

const NO_PICKERS = `(() => {
  delete window.showSaveFilePicker;
  delete window.showDirectoryPicker;
  // Own properties in some builds, prototype ones in others: both are gone afterwards.
  try { delete Window.prototype.showSaveFilePicker; delete Window.prototype.showDirectoryPicker; } catch {}
})()`;

export async function withOpfsPickers(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(OPFS_PICKERS);
}

export async function withoutFileSystemAccess(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(NO_PICKERS);
}

/** The next `count` picker calls behave as if the user closed the dialog. */
export async function cancelNextPickers(page: Page, count = 1): Promise<void> {
  await page.evaluate((n) => ((window as unknown as { __opfsPickers: { cancelNext: number } }).__opfsPickers.cancelNext = n), count);
}

/** Every folder dialog answers with this OPFS directory (to save into the same folder twice). */
export async function reusePickedDirectory(page: Page, name: string): Promise<void> {
  await page.evaluate((n) => ((window as unknown as { __opfsPickers: { reuseDirectory: string } }).__opfsPickers.reuseDirectory = n), name);
}

/** OPFS paths the pickers handed out, in order (since the page loaded). */
export async function pickedPaths(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window as unknown as { __opfsPickers: { picked: string[] } }).__opfsPickers.picked]);
}

export interface OpfsFile {
  /** Relative to the directory listed. */
  path: string;
  size: number;
  sha256: string;
}

/**
 * Every file under an OPFS directory ('' for the root), read back in the page and hashed there
 * (SHA-256), sorted by path. Entries still being written (Chromium's .crswap) would show up too;
 * an entry removed between the listing and the end of its read (a download's clean-up) is left out.
 */
export async function readOpfsTree(page: Page, directory: string): Promise<OpfsFile[]> {
  return page.evaluate(async (start) => {
    const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    let dir = await navigator.storage.getDirectory();
    for (const part of start.split('/').filter(Boolean)) dir = await dir.getDirectoryHandle(part);
    const out: Array<{ path: string; size: number; sha256: string }> = [];
    const walk = async (handle: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
      for await (const [name, entry] of handle.entries()) {
        if (entry.kind === 'directory') await walk(entry as FileSystemDirectoryHandle, `${prefix}${name}/`);
        else {
          // The entry can go at the open or at the read (a closed page's worker removing its `.part`).
          const bytes = await (entry as FileSystemFileHandle)
            .getFile()
            .then((file) => file.arrayBuffer())
            .catch((error: unknown) => {
              if (error instanceof DOMException && error.name === 'NotFoundError') return null;
              throw error;
            });
          if (bytes === null) continue;
          out.push({ path: `${prefix}${name}`, size: bytes.byteLength, sha256: hex(await crypto.subtle.digest('SHA-256', bytes)) });
        }
      }
    };
    await walk(dir, '');
    return out.sort((a, b) => (a.path < b.path ? -1 : 1));
  }, directory);
}
