// What startDownload refuses before it asks any worker: a cancelled signal, an empty batch, and a
// single-file destination given several files. Nothing is posted and no key leaves the pool.
import { describe, expect, it, vi } from 'vitest';
import type { FileKeyHandle } from '../../../workers/index.ts';
import { startDownload } from './startDownload.ts';
import type { DecryptedDownloadSource, DownloadDestination } from './types.ts';

const source = (name: string): DecryptedDownloadSource => ({ url: `/api/folders/download/${name}`, name, plainSize: 1, iv: 'AAAAAAAAAAAAAAAA', key: { id: name, kind: 'file' } as FileKeyHandle });

describe('startDownload refuses before it starts', () => {
  it.each<[string, DownloadDestination, DecryptedDownloadSource[], { code: string; message?: string }, AbortSignal?]>([
    ['a cancelled signal', { kind: 'browser-file' }, [source('a')], { code: 'ABORTED', message: 'The download was cancelled.' }, AbortSignal.abort()],
    ['an empty ZIP', { kind: 'browser-zip', zipName: 'x.zip' }, [], { code: 'FAILED', message: 'No files selected for ZIP download.' }],
    ['an empty folder save', { kind: 'disk-folder', directory: {} as FileSystemDirectoryHandle }, [], { code: 'FAILED', message: 'No files selected for download.' }],
    ['one file given two', { kind: 'browser-file' }, [source('a'), source('b')], { code: 'FAILED' }],
    ['one file on disk given none', { kind: 'disk-file', file: {} as FileSystemFileHandle }, [], { code: 'FAILED' }],
  ])('%s', async (_name, destination, sources, expected, signal) => {
    const pool = { sendFileKeys: vi.fn() };
    await expect(startDownload({ pool, destination, sources, ...(signal ? { signal } : {}) })).rejects.toMatchObject(expected);
    expect(pool.sendFileKeys).not.toHaveBeenCalled();
  });
});
