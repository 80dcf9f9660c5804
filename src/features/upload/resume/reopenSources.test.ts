// One-click resume against an in-memory file system with the File System Access API's shape and
// permission model: which files are queued again, and which entries need a new selection.
import { describe, expect, it } from 'vitest';
import type { FileSource } from './fileSource.ts';
import { entryIdOf, QUEUE_ENTRY_VERSION, type QueueEntry } from './queueEntry.ts';
import { reopenSources } from './reopenSources.ts';
import { asFileHandle as asFile, asFolderHandle as asFolder, FakeFile, FakeFolder, Permissions } from './testing/fakeFileSystemHandles.ts';

const T = 1_700_000_000_000;

function entryFor(relativePath: string, file: FakeFile, source: FileSource | undefined): QueueEntry {
  const identity = { linkToken: 'link', relativePath, name: file.name, size: file.content.length, lastModified: file.lastModified };
  return {
    version: QUEUE_ENTRY_VERSION,
    id: entryIdOf(identity),
    ...identity,
    status: 'uploading',
    uploadUrl: 'https://sealdrop.test/tus/1',
    confirmedOffset: 10,
    encryptedLength: 100,
    iv: 'iv',
    fileKey: { nonce: 'n', wrapped: 'w' } as never,
    createdAt: T,
    updatedAt: T,
    ...(source ? { source } : {}),
  };
}


/** Shoot/notes.txt, Shoot/raw/take1.mov, Shoot/raw/take2.mov under one permission. */
function shoot(permissions = new Permissions()) {
  const root = new FakeFolder('Shoot', permissions);
  const raw = new FakeFolder('raw', permissions);
  const notes = new FakeFile('notes.txt', 'notes', T, permissions);
  const take1 = new FakeFile('take1.mov', 'take one content', T, permissions);
  const take2 = new FakeFile('take2.mov', 'take two content', T, permissions);
  raw.children.push(take1, take2);
  root.children.push(notes, raw, new FakeFile('.DS_Store', 'x', T, permissions));
  const sourceOf = (file: FakeFile, path: string[]): FileSource => ({ kind: 'folder', root: asFolder(root), path });
  return { root, raw, notes, take1, take2, permissions, sourceOf };
}

describe('reopening unfinished files through their kept handles', () => {
  it('a kept folder: one permission prompt, the whole folder read again with the same paths as a re-selection', async () => {
    const s = shoot();
    const entries = [entryFor('Shoot/raw', s.take1, s.sourceOf(s.take1, ['raw', 'take1.mov'])), entryFor('Shoot/raw', s.take2, s.sourceOf(s.take2, ['raw', 'take2.mov']))];
    const reopened = await reopenSources(entries);
    expect(s.permissions.asked).toBe(1);
    expect(reopened.problems.size).toBe(0);
    expect(reopened.files.map((f) => [f.relativePath, f.file.name, f.file.size, f.file.lastModified])).toEqual([
      ['Shoot', 'notes.txt', 5, T],
      ['Shoot/raw', 'take1.mov', 16, T],
      ['Shoot/raw', 'take2.mov', 16, T],
    ]);
    // Each file keeps a source for the journal: the same folder and its path inside it.
    expect(reopened.files[1]!.source).toEqual({ kind: 'folder', root: s.root, path: ['raw', 'take1.mov'] });
  });

  it('no prompt when the permission is still granted', async () => {
    const s = shoot(new Permissions('granted', 'granted'));
    await reopenSources([entryFor('Shoot/raw', s.take1, s.sourceOf(s.take1, ['raw', 'take1.mov']))]);
    expect(s.permissions.asked).toBe(0);
  });

  it('a file changed in the folder since: not queued (select it again), the rest of the folder is', async () => {
    const s = shoot();
    const entries = [entryFor('Shoot/raw', s.take1, s.sourceOf(s.take1, ['raw', 'take1.mov']))];
    s.take1.content = 'edited take one!';
    s.take1.lastModified = T + 60_000;
    const reopened = await reopenSources(entries);
    expect([...reopened.problems]).toEqual([[entries[0]!.id, 'changed']]);
    expect(reopened.files.map((f) => f.file.name)).toEqual(['notes.txt', 'take2.mov']);
  });

  it('a file gone from the folder: missing', async () => {
    const s = shoot();
    const entries = [entryFor('Shoot/raw', s.take2, s.sourceOf(s.take2, ['raw', 'take2.mov']))];
    s.raw.children.splice(1, 1);
    const reopened = await reopenSources(entries);
    expect(reopened.problems.get(entries[0]!.id)).toBe('missing');
    expect(reopened.files.map((f) => f.file.name)).toEqual(['notes.txt', 'take1.mov']);
  });

  it('permission refused: nothing of that folder is read, every entry under it needs a new selection', async () => {
    const s = shoot(new Permissions('denied'));
    const entries = [entryFor('Shoot/raw', s.take1, s.sourceOf(s.take1, ['raw', 'take1.mov'])), entryFor('Shoot/raw', s.take2, s.sourceOf(s.take2, ['raw', 'take2.mov']))];
    const reopened = await reopenSources(entries);
    expect(reopened.files).toEqual([]);
    expect([...reopened.problems.values()]).toEqual(['denied', 'denied']);
  });

  it('kept files: each opened and checked by name, size and date; a vanished or changed one needs a new selection; entries without a handle are left alone', async () => {
    const permissions = new Permissions();
    const same = new FakeFile('same.bin', 'same content', T, permissions);
    const changed = new FakeFile('changed.bin', 'old content', T, permissions);
    const vanished = new FakeFile('vanished.bin', 'content', T, permissions);
    const picked = new FakeFile('picked-by-input.bin', 'content', T, permissions);
    const entries = [
      entryFor('.', same, { kind: 'file', handle: asFile(same) }),
      entryFor('.', changed, { kind: 'file', handle: asFile(changed) }),
      entryFor('.', vanished, { kind: 'file', handle: asFile(vanished) }),
      entryFor('.', picked, undefined),
    ];
    changed.lastModified = T + 1;
    vanished.gone = true;
    const reopened = await reopenSources(entries);
    expect(reopened.files.map((f) => [f.relativePath, f.file.name])).toEqual([['.', 'same.bin']]);
    expect(reopened.files[0]!.source).toEqual({ kind: 'file', handle: same });
    expect(Object.fromEntries([...reopened.problems].map(([id, problem]) => [entries.find((e) => e.id === id)!.name, problem]))).toEqual({
      'changed.bin': 'changed',
      'vanished.bin': 'missing',
    });
  });

  it('a prompt that throws (no user activation left) counts as refused', async () => {
    const file = new FakeFile('a.bin', 'content', T, new Permissions());
    file.requestPermission = async () => {
      throw new DOMException('User activation is required to request permissions.', 'SecurityError');
    };
    const entry = entryFor('.', file, { kind: 'file', handle: asFile(file) });
    expect((await reopenSources([entry])).problems.get(entry.id)).toBe('denied');
  });
});
