// The public page's pure rules: ZIP partial failures, the per-file button, and the entries of a
// link's ZIP.
import { describe, expect, it } from 'vitest';
import type { SharedFile } from '../../api/linksApi.ts';
import type { FileKeyHandle } from '../../../workers/index.ts';
import { FILE_BUTTON_LABELS, isBusy, progressPercent, statusForProgress } from './fileButtonState.ts';
import { linkFileSource, linkZipSources } from './linkDownloadSources.ts';
import { zipOutcomeNotice } from './zipOutcome.ts';

describe('zipOutcomeNotice', () => {
  it('is an error when every file failed, with the 5 s toast', () => {
    expect(zipOutcomeNotice(3, 3)).toEqual({ severity: 'error', message: 'All files failed to download.', autoHideMs: 5000 });
  });

  it('is a warning naming the count when some failed', () => {
    expect(zipOutcomeNotice(5, 2)).toEqual({ severity: 'warning', message: 'Download complete, but 2 files failed.', autoHideMs: 5000 });
    expect(zipOutcomeNotice(5, 1).message).toBe('Download complete, but 1 file failed.');
  });

  it('is a success with the 3 s toast otherwise', () => {
    expect(zipOutcomeNotice(4, 0)).toMatchObject({ severity: 'success', autoHideMs: 3000 });
  });
});

describe('per-file button', () => {
  it('reads the spec\'s texts', () => {
    expect([FILE_BUTTON_LABELS.starting, FILE_BUTTON_LABELS.downloading, FILE_BUTTON_LABELS.decrypting, FILE_BUTTON_LABELS.done, FILE_BUTTON_LABELS.failed]).toEqual([
      'Starting...',
      'Downloading...',
      'Decrypting...',
      'Done!',
      'Failed',
    ]);
  });

  it('moves from starting through downloading to decrypting as the bytes come in', () => {
    expect(statusForProgress(0, 1000)).toBe('starting');
    expect(statusForProgress(1, 1000)).toBe('downloading');
    expect(statusForProgress(999, 1000)).toBe('downloading');
    expect(statusForProgress(1000, 1000)).toBe('decrypting');
    expect(statusForProgress(0, 0)).toBe('starting');
  });

  it('is busy only while a download runs', () => {
    expect(['idle', 'starting', 'downloading', 'decrypting', 'done', 'failed'].map((s) => isBusy(s as never))).toEqual([false, true, true, true, false, false]);
  });

  it('shows whole percents, capped at 100, and none for an unknown size', () => {
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(5, 3)).toBe(100);
    expect(progressPercent(5, 0)).toBeNull();
  });
});

const key = (id: string) => ({ id, kind: 'file' }) as FileKeyHandle;
const file = (id: number, name: string): SharedFile => ({ id, original_filename: name, file_size: id * 10, encryption_iv: `iv-${id}` });

describe('link download sources', () => {
  it('point at the link\'s file route with the file\'s size, IV and key', () => {
    const keys = new Map([['7', key('k7')]]);
    expect(linkFileSource('tok/en', file(7, 'a.txt'), keys)).toEqual({
      url: '/api/download/tok%2Fen/file/7',
      name: 'a.txt',
      plainSize: 70,
      iv: 'iv-7',
      key: key('k7'),
    });
    expect(linkFileSource('tok', file(8, 'b.txt'), keys)).toBeNull();
  });

  it('keep the link\'s order, report files without a key and give repeated names a suffix', () => {
    const files = [file(1, 'report.pdf'), file(2, 'Report.pdf'), file(3, 'lost.bin'), file(4, 'report.pdf'), file(5, 'README')];
    const keys = new Map(['1', '2', '4', '5'].map((id) => [id, key(`k${id}`)]));
    const { sources, missingKeys } = linkZipSources('tok', files, keys);
    expect(sources.map((source) => source.name)).toEqual(['report.pdf', 'Report (2).pdf', 'report (3).pdf', 'README']);
    expect(missingKeys.map((missing) => missing.id)).toEqual([3]);
  });
});
