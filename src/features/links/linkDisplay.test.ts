import { describe, expect, it } from 'vitest';
import type { DownloadLink } from '../../api/linksApi.ts';
import { describeLink } from './linkDisplay.ts';

const LAST = '2030-01-20T08:30:00.000Z';

function link(changes: Partial<DownloadLink>): DownloadLink {
  return {
    link_token: 't'.repeat(43),
    creation_date: '2030-01-19T08:30:00.000Z',
    expiration_date: null,
    has_password: false,
    file_count: 2,
    files: ['a.pdf', 'b.pdf'],
    max_downloads: null,
    file_downloads: [
      { file_id: 1, download_count: 0, last_download_at: null },
      { file_id: 2, download_count: 2, last_download_at: LAST },
    ],
    ...changes,
  };
}

describe('describeLink: downloads', () => {
  it('without a limit: counts per file, no limit line, never "reached"', () => {
    const shown = describeLink(link({}), 'en-US');
    expect(shown.downloadLimit).toBeNull();
    expect(shown.limitReached).toBe(false);
    expect(shown.files[0]).toEqual({ name: 'a.pdf', downloads: 'not downloaded yet' });
    expect(shown.files[1]!.name).toBe('b.pdf');
    expect(shown.files[1]!.downloads).toMatch(/^2 downloads, last .*2030/);
  });

  it('with a limit: "n of N", the limit line, and "reached" only when every file is used up', () => {
    const partly = describeLink(link({ max_downloads: 2 }), 'en-US');
    expect(partly.downloadLimit).toBe('2 downloads per file');
    expect(partly.files[0]!.downloads).toBe('0 of 2 downloads');
    expect(partly.files[1]!.downloads).toMatch(/^2 of 2 downloads, last /);
    expect(partly.limitReached).toBe(false);
    const used = describeLink(
      link({ max_downloads: 1, file_downloads: [{ file_id: 1, download_count: 1, last_download_at: LAST }, { file_id: 2, download_count: 1, last_download_at: LAST }] }),
      'en-US',
    );
    expect(used.downloadLimit).toBe('1 download per file');
    expect(used.limitReached).toBe(true);
  });
});
