// Choosing files through File System Access handles: feature detection, a closed dialog, the
// handles remembered for the journal, and a drop that falls back to the entry walk.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canPickHandles, dropHandlesOf, filesFromDropHandles, pickFileHandles, pickFolderHandle } from './filePickers.ts';
import { pickedSources } from './resume/fileSource.ts';
import { asFileHandle, asFolderHandle, FakeFile, FakeFolder, Permissions } from './resume/testing/fakeFileSystemHandles.ts';

const T = 1_700_000_000_000;
const cancelled = () => new DOMException('The user aborted a request.', 'AbortError');

function shoot() {
  const permissions = new Permissions();
  const root = new FakeFolder('Shoot', permissions);
  const raw = new FakeFolder('raw', permissions);
  raw.children.push(new FakeFile('take1.mov', 'take one', T, permissions));
  root.children.push(new FakeFile('notes.txt', 'notes', T, permissions), raw, new FakeFile('Thumbs.db', 'x', T, permissions));
  return root;
}

function dataTransfer(items: Array<Partial<DataTransferItem> & { getAsFileSystemHandle?: () => Promise<unknown> }>): DataTransfer {
  return { items: items.map((item) => ({ kind: 'file', ...item })) } as unknown as DataTransfer;
}

afterEach(() => {
  vi.unstubAllGlobals();
  pickedSources.clear();
});

describe('picking files through File System Access handles', () => {
  it('is offered only where both dialogs exist (not in Firefox), and a drop there is walked as entries', () => {
    expect(canPickHandles()).toBe(false);
    vi.stubGlobal('window', { showOpenFilePicker: async () => [] });
    expect(canPickHandles()).toBe(false);
    expect(dropHandlesOf(dataTransfer([{ getAsFileSystemHandle: async () => null }]))).toBeNull();
  });

  it('a picked folder: every file with the same paths as <input webkitdirectory>, clutter skipped, each handle remembered for the journal', async () => {
    const root = shoot();
    vi.stubGlobal('window', { showOpenFilePicker: async () => [], showDirectoryPicker: async () => asFolderHandle(root) });
    const files = await pickFolderHandle();
    expect(files.map((f) => [f.relativePath, f.file.name])).toEqual([
      ['Shoot', 'notes.txt'],
      ['Shoot/raw', 'take1.mov'],
    ]);
    expect(pickedSources.sourceOf({ relativePath: 'Shoot/raw', name: 'take1.mov', size: 8, lastModified: T })).toEqual({ kind: 'folder', root, path: ['raw', 'take1.mov'] });
  });

  it('picked files sit at the top (".") with their file handles; a closed dialog adds nothing; another failure is thrown (the page falls back to the input)', async () => {
    const file = new FakeFile('a.bin', 'content', T, new Permissions());
    const picker = vi.fn(async () => [asFileHandle(file)]);
    vi.stubGlobal('window', { showOpenFilePicker: picker, showDirectoryPicker: async () => Promise.reject(cancelled()) });
    expect((await pickFileHandles()).map((f) => [f.relativePath, f.file.name])).toEqual([['.', 'a.bin']]);
    expect(pickedSources.sourceOf({ relativePath: '.', name: 'a.bin', size: 7, lastModified: T })).toEqual({ kind: 'file', handle: file });
    expect(await pickFolderHandle()).toEqual([]);
    picker.mockRejectedValueOnce(new DOMException('Not allowed.', 'SecurityError'));
    await expect(pickFileHandles()).rejects.toThrow('Not allowed.');
  });

  it('a drop read through handles; an item without one (not a file system item) makes the whole drop use the entry walk', async () => {
    const root = shoot();
    vi.stubGlobal('window', { showOpenFilePicker: async () => [], showDirectoryPicker: async () => asFolderHandle(root) });
    const handles = dropHandlesOf(dataTransfer([{ getAsFileSystemHandle: async () => root }]));
    expect(handles).toBeInstanceOf(Promise);
    expect((await filesFromDropHandles(await handles!))!.map((f) => f.relativePath)).toEqual(['Shoot', 'Shoot/raw']);
    expect(await filesFromDropHandles([asFolderHandle(root), null])).toBeNull();
    expect(dropHandlesOf(dataTransfer([{ getAsFileSystemHandle: async () => root }, {}]))).toBeNull();
  });
});
