import { describe, expect, it } from 'vitest';
import { describeApiError } from '../../api/errors.ts';
import { DownloadError } from '../../../workers/index.ts';
import { DOWNLOAD_ERROR_CODES } from '../../../contract/download-failure.ts';
import { downloadErrorText } from '../userTexts.ts';

// Workers send a failure's code and facts; these are the texts the page makes of them (spec
// section 8, "Crypto and download", word for word where it has one).
describe('downloadErrorText', () => {
  it('words each code with its facts', () => {
    const text = (...args: ConstructorParameters<typeof DownloadError>) => downloadErrorText(new DownloadError(...args));
    expect(text('INTEGRITY')).toBe('Decryption failed: Incorrect password or corrupted data.');
    expect(text('SIZE_MISMATCH', { file: 'a.txt' })).toBe('Incomplete file data received from server.');
    expect(text('HEADERS', { case: 'missing-header', file: 'a.txt' })).toBe('Missing encryption data for a.txt');
    expect(text('HEADERS', { case: 'invalid-iv', file: 'a.txt' })).toBe('Invalid encryption IV format received from server.');
    expect(text('HTTP', { case: 'network', file: 'a.txt' })).toBe('Failed to download a.txt: Network Error: Could not connect to the server.');
    expect(text('HTTP', { file: 'a.txt', detail: 'File not found' })).toBe('Failed to download a.txt: File not found');
    expect(text('HTTP', { file: 'a.txt', status: 502, statusText: 'Bad Gateway' })).toBe('Failed to download a.txt: Error: 502 - Bad Gateway');
    expect(text('HTTP', { case: 'not-resumable', file: 'a.txt' })).toBe('Failed to download a.txt: the file changed or cannot be resumed');
    expect(text('KEY_UNAVAILABLE', { file: 'a.txt' })).toBe('Decryption key for "a.txt" not found.');
    expect(text('KEY_FORMAT')).toBe('Invalid encryption key format received from server.');
    expect(text('NOTHING_DECRYPTED')).toBe('No files could be decrypted.');
    expect(text('WRITE_FAILED', { case: 'disk-full', file: 'a.txt' })).toBe('Could not save "a.txt": the disk is full. Free some space and try again.');
    expect(text('WRITE_FAILED', { case: 'not-allowed', file: 'a.txt' })).toBe(
      'Could not save "a.txt": the browser may not write to the chosen location. Choose another folder and try again.',
    );
    expect(text('WRITE_FAILED', { file: 'a.txt', detail: 'InvalidStateError' })).toBe('Could not save "a.txt" (InvalidStateError). Choose another location and try again.');
    expect(text('FAILED', { case: 'no-zip-files' })).toBe('No files selected for ZIP download.');
    expect(text('FAILED', { case: 'no-files' })).toBe('No files selected for download.');
    expect(text('FAILED', { detail: 'boom' })).toBe('Unexpected Error: boom');
    expect(text('FAILED')).toBe('An unknown error occurred.');
  });

  it('has a text for every code, none of them the log message the worker wrote', () => {
    for (const code of DOWNLOAD_ERROR_CODES) {
      const error = new DownloadError(code, { file: 'a.txt' });
      expect(downloadErrorText(error)).not.toBe(error.message);
      expect(downloadErrorText(error).length).toBeGreaterThan(10);
    }
  });

  it('is what describeApiError shows for a download failure, not its log message', () => {
    const error = new DownloadError('KEY_UNAVAILABLE', { file: 'a.txt' });
    expect(describeApiError(error)).toMatchObject({ code: 'app', appCode: 'KEY_UNAVAILABLE', message: 'Decryption key for "a.txt" not found.' });
  });
});
