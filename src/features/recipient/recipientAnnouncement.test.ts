import { describe, expect, it } from 'vitest';
import type { SharedFile } from '../../api/linksApi.ts';
import { recipientAnnouncement } from './recipientAnnouncement.ts';
import type { FileDownloadState, ZipDownloadState } from './useLinkDownloads.ts';

const files = [
  { id: 1, original_filename: 'letter.txt', file_size: 10 },
  { id: 2, original_filename: 'scan.pdf', file_size: 20 },
] as SharedFile[];
const noZip: ZipDownloadState = { running: false, mode: 'zip', percent: null };

function statesOf(states: Record<number, FileDownloadState>) {
  return (file: SharedFile) => states[file.id] ?? { status: 'idle', percent: null };
}

describe('recipientAnnouncement', () => {
  it('says nothing while every file is idle', () => {
    expect(recipientAnnouncement(files, statesOf({}), noZip)).toBe('');
  });

  it('follows a file from start through the quarters to its outcome', () => {
    expect(recipientAnnouncement(files, statesOf({ 1: { status: 'starting', percent: null } }), noZip)).toBe('Downloading letter.txt.');
    expect(recipientAnnouncement(files, statesOf({ 1: { status: 'downloading', percent: 60 } }), noZip)).toBe('Downloading letter.txt: 50%.');
    expect(recipientAnnouncement(files, statesOf({ 1: { status: 'downloading', percent: 74 } }), noZip)).toBe('Downloading letter.txt: 50%.');
    expect(recipientAnnouncement(files, statesOf({ 1: { status: 'done', percent: 100 } }), noZip)).toBe('letter.txt downloaded.');
    expect(recipientAnnouncement(files, statesOf({ 2: { status: 'failed', percent: null } }), noZip)).toBe('Download of scan.pdf failed.');
  });

  it('names every file that is not idle, and the ZIP by quarters', () => {
    const states = statesOf({ 1: { status: 'done', percent: 100 }, 2: { status: 'decrypting', percent: 100 } });
    expect(recipientAnnouncement(files, states, { running: true, mode: 'zip', percent: 30 })).toBe(
      'letter.txt downloaded. Downloading scan.pdf: 100%. Preparing the ZIP: 25%.',
    );
    expect(recipientAnnouncement(files, statesOf({}), { running: true, mode: 'folder', percent: null })).toBe('Saving to the folder: 0%.');
  });
});
