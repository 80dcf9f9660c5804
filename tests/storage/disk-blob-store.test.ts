import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStoreError } from '../../server/storage/blob-store.ts';
import { DiskBlobStore } from '../../server/storage/disk-blob-store.ts';

describe('DiskBlobStore', () => {
  let root: string;
  let store: DiskBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'blobs-'));
    store = new DiskBlobStore(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('stores a stream and reads it back whole and by inclusive range', async () => {
    const info = await store.put('files/a/1', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(info.size).toBe(11);
    expect(await store.stat('files/a/1')).toEqual({ size: 11 });
    expect(await text(await store.get('files/a/1'))).toBe('hello world');
    expect(await text(await store.get('files/a/1', { start: 6 }))).toBe('world');
    expect(await text(await store.get('files/a/1', { start: 0, end: 4 }))).toBe('hello');
  });

  it('refuses a blob over the size limit and leaves nothing behind', async () => {
    const body = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(store.put('big', body, { maxBytes: 1000 })).rejects.toMatchObject({ code: 'BLOB_TOO_LARGE' });
    expect(await store.stat('big')).toBeNull();
    expect(await readdir(root)).toEqual([]);
  });

  it('leaves no partial file when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(10));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put('dropped', failing)).rejects.toThrow('client went away');
    expect(await store.stat('dropped')).toBeNull();
    expect(await readdir(root)).toEqual([]);
  });

  it('answers missing blobs and bad ranges with typed errors', async () => {
    await expect(store.get('nope')).rejects.toMatchObject({ code: 'BLOB_NOT_FOUND' });
    await store.put('x', Readable.from([Buffer.from('abc')]));
    await expect(store.get('x', { start: 2, end: 5 })).rejects.toMatchObject({ code: 'BLOB_BAD_RANGE' });
    await expect(store.get('x', { start: 2, end: 1 })).rejects.toBeInstanceOf(BlobStoreError);
  });

  it('refuses keys that could escape the root', async () => {
    for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'a//b', '', '.hidden']) {
      await expect(store.stat(key)).rejects.toMatchObject({ code: 'BLOB_BAD_KEY' });
    }
  });

  it('deletes, and deleting a missing blob is fine', async () => {
    await store.put('gone', Readable.from([Buffer.from('x')]));
    await store.delete('gone');
    await store.delete('gone');
    expect(await store.stat('gone')).toBeNull();
  });
});
