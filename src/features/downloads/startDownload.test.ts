// What startDownload refuses before it asks any worker: a cancelled signal, an empty batch, and a
// single-file destination given several files. Nothing is posted and no key leaves the pool.
import { describe, expect, it, vi } from 'vitest';
import type { DownloadError, FileKeyHandle } from '../../../workers/index.ts';
import { downloadErrorText } from '../../lib/userTexts.ts';
import { startDownload } from './startDownload.ts';
import type { DecryptedDownloadSource, DownloadDestination } from './types.ts';

const source = (name: string): DecryptedDownloadSource => ({ url: `/api/folders/download/${name}`, name, plainSize: 1, iv: 'AAAAAAAAAAAAAAAA', key: { id: name, kind: 'file' } as FileKeyHandle });

describe('startDownload refuses before it starts', () => {
  it.each<[string, DownloadDestination, DecryptedDownloadSource[], { code: string; text?: string }, AbortSignal?]>([
    ['a cancelled signal', { kind: 'browser-file' }, [source('a')], { code: 'ABORTED', text: 'The download was cancelled.' }, AbortSignal.abort()],
    ['an empty ZIP', { kind: 'browser-zip', zipName: 'x.zip' }, [], { code: 'FAILED', text: 'No files selected for ZIP download.' }],
    ['an empty folder save', { kind: 'disk-folder', directory: {} as FileSystemDirectoryHandle }, [], { code: 'FAILED', text: 'No files selected for download.' }],
    ['one file given two', { kind: 'browser-file' }, [source('a'), source('b')], { code: 'FAILED' }],
    ['one file on disk given none', { kind: 'disk-file', file: {} as FileSystemFileHandle }, [], { code: 'FAILED' }],
  ])('%s', async (_name, destination, sources, expected, signal) => {
    const pool = { sendFileKeys: vi.fn() };
    const error = (await startDownload({ pool, destination, sources, ...(signal ? { signal } : {}) }).catch((e: unknown) => e)) as DownloadError;
    expect(error).toMatchObject({ code: expected.code });
    if (expected.text !== undefined) expect(downloadErrorText(error)).toBe(expected.text);
    expect(pool.sendFileKeys).not.toHaveBeenCalled();
  });
});
