// The one opener of file keys: a personal folder's file opens with the account key and never asks
// for the folder's keys; a team folder's file opens with the folder's keys of its epoch, opened
// once for the whole batch; a failure to open them fails those files, with no fallback.
import { describe, expect, it, vi } from 'vitest';
import type { FileKeyHandle, FolderKeysHandle, PrivateKeyHandle } from '../../../workers/index.ts';
import { fileKeyOpener, type FileKeyPool } from './fileKeys.ts';

const privateKey = { id: 'p', kind: 'private' } as PrivateKeyHandle;
const folderKeys = { id: 'f', kind: 'folder' } as FolderKeysHandle;

function pool() {
  return {
    unwrapFileKey: vi.fn(async (_key: PrivateKeyHandle, wrapped: string) => ({ id: `account:${wrapped}`, kind: 'file' }) as FileKeyHandle),
    unwrapFolderFileKey: vi.fn(async (_keys: FolderKeysHandle, epoch: number, wrapped: string) => ({ id: `epoch${epoch}:${wrapped}`, kind: 'file' }) as FileKeyHandle),
  } satisfies FileKeyPool;
}

describe('fileKeyOpener', () => {
  it('opens a personal folder\'s file with the account key, without opening the team', async () => {
    const p = pool();
    const team = vi.fn(async () => folderKeys);
    const open = fileKeyOpener(p, privateKey, team);
    expect((await open({ encrypted_key: 'a', key_epoch: null })).id).toBe('account:a');
    expect(team).not.toHaveBeenCalled();
  });

  it('opens team files with their epoch\'s key and opens the team once', async () => {
    const p = pool();
    const team = vi.fn(async () => folderKeys);
    const open = fileKeyOpener(p, privateKey, team);
    const keys = await Promise.all([open({ encrypted_key: 'a', key_epoch: 1 }), open({ encrypted_key: 'b', key_epoch: 2 })]);
    expect(keys.map((key) => key.id)).toEqual(['epoch1:a', 'epoch2:b']);
    expect(team).toHaveBeenCalledTimes(1);
    expect(p.unwrapFileKey).not.toHaveBeenCalled();
  });

  it('fails a team file when the team cannot be opened, and never tries the account key', async () => {
    const p = pool();
    const refusal = Object.assign(new Error('refused'), { code: 'TEAM_MANIFEST_INVALID' });
    const open = fileKeyOpener(p, privateKey, () => Promise.reject(refusal));
    await expect(open({ encrypted_key: 'a', key_epoch: 1 })).rejects.toBe(refusal);
    expect(p.unwrapFileKey).not.toHaveBeenCalled();
  });
});
