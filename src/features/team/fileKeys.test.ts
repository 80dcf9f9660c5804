// The one opener of file keys: a personal folder's file opens with the account key and never asks
// for the folder's keys; a team folder's file opens with the folder's keys of its epoch, opened
// once for the whole batch; a failure to open them fails those files, with no fallback.
import { describe, expect, it, vi } from 'vitest';
import type { FileKeyHandle, FolderKeysHandle, PrivateKeyHandle } from '../../../workers/index.ts';
import { describeApiError } from '../../api/errors.ts';
import { fileKeyOpener, type FileKeyPool } from './fileKeys.ts';
import { OwnerKeyOnlyError } from './teamErrors.ts';

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
    const open = fileKeyOpener(p, privateKey, team, true);
    expect((await open({ encrypted_key: 'a', key_epoch: null })).id).toBe('account:a');
    expect(team).not.toHaveBeenCalled();
  });

  it('opens team files with their epoch\'s key and opens the team once', async () => {
    const p = pool();
    const team = vi.fn(async () => folderKeys);
    const open = fileKeyOpener(p, privateKey, team, true);
    const keys = await Promise.all([open({ encrypted_key: 'a', key_epoch: 1 }), open({ encrypted_key: 'b', key_epoch: 2 })]);
    expect(keys.map((key) => key.id)).toEqual(['epoch1:a', 'epoch2:b']);
    expect(team).toHaveBeenCalledTimes(1);
    expect(p.unwrapFileKey).not.toHaveBeenCalled();
  });

  it('fails a team file when the team cannot be opened, and never tries the account key', async () => {
    const p = pool();
    const refusal = Object.assign(new Error('refused'), { code: 'TEAM_MANIFEST_INVALID' });
    const open = fileKeyOpener(p, privateKey, () => Promise.reject(refusal), true);
    await expect(open({ encrypted_key: 'a', key_epoch: 1 })).rejects.toBe(refusal);
    expect(p.unwrapFileKey).not.toHaveBeenCalled();
  });

  it('refuses a file with no epoch to a member who is not the owner, without trying their key (which must not look wrong)', async () => {
    const p = pool();
    const open = fileKeyOpener(p, privateKey, async () => folderKeys, false);
    const refusal = await open({ encrypted_key: 'a', key_epoch: null }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OwnerKeyOnlyError);
    expect((refusal as OwnerKeyOnlyError).code).toBe('OWNER_KEY_ONLY');
    expect(describeApiError(refusal).message).toBe("This file was uploaded while the folder was being shared, so it is sealed to the owner's key only. Ask the folder's owner for it.");
    expect(p.unwrapFileKey).not.toHaveBeenCalled();
    expect((await open({ encrypted_key: 'b', key_epoch: 1 })).id).toBe('epoch1:b');
  });
});
