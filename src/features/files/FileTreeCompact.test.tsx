// @vitest-environment jsdom
// The files tree on a narrow screen: no date columns (the dates go under each name),
// Download as an icon with the same name, and the sort headers' choices in one select.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileRecord } from '../../api/filesApi.ts';
import type { Folder } from '../../api/types.ts';
import { installFakeApi } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState } from '../../app/testing/renderWithProviders.tsx';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import { fileRecord } from './testing/fileRecords.ts';

const folder = { id: 7, title: 'Client onboarding', description: null, creation_date: '2030-01-01T00:00:00Z', expiration_date: null, last_upload_time: null, is_active: true, has_password: false, require_email_verification: false, allowed_emails: null, perform_mime_check: true, link_token: 'tok', has_undownloaded_files: true, storage_limit_bytes: null, file_limit: null, retention_days: null, used_bytes: 0, used_files: 0, my_role: 'owner', is_team: false } satisfies Folder;
const downloaded = '2030-02-01T10:00:00Z';
const files: FileRecord[] = [fileRecord('1/contract.pdf', { id: 1, file_size: 1536 }), fileRecord('2/scans/id-front.jpg', { id: 2, last_downloaded_admin: downloaded })];

let restore = () => {};
const realMatchMedia = window.matchMedia;
beforeEach(() => {
  window.matchMedia = (query: string) =>
    ({ matches: query.includes('max-width'), media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false }) as MediaQueryList;
});
afterEach(() => {
  cleanup();
  restore();
  window.matchMedia = realMatchMedia;
});

async function openNarrow() {
  const api = installFakeApi({
    'GET /api/folders/7': () => ({ status: 200, body: folder }),
    'GET /api/folders/7/files': () => ({ status: 200, body: files }),
    'GET /api/download/links/folder/7': () => ({ status: 200, body: [] }),
  });
  restore = api.restore;
  renderAppAt('/folders/view/7', { preloadedState: signedInState() });
  await screen.findByText('0 / 2 selected', {}, { timeout: 10_000 });
  return screen.getByRole('table', { name: 'Files' });
}

describe('Files tree on a narrow screen', () => {
  it('keeps Name, Size and Action as columns and shows the dates under each name', async () => {
    const table = await openNarrow();
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['', 'Name', 'Size', 'Action']);
    const row = within(table).getByText('contract.pdf').closest('tr')!;
    expect(within(row).getByText(`Uploaded: ${formatDateTime(files[0]!.upload_time)}`, { exact: false })).toBeVisible();
    expect(row.textContent).toContain('Last Downloaded: Never');
    expect(within(row).getByText('1.5 KB')).toBeVisible();
  });

  it('Download is an icon button that keeps its name, for files and folders', async () => {
    const table = await openNarrow();
    const download = within(table).getByRole('button', { name: 'Download contract.pdf' });
    expect(download.textContent).toBe('');
    expect(within(table).getByRole('button', { name: 'Download folder scans' })).toBeEnabled();
  });

  it('the sort select replaces the Uploaded and Last Downloaded headers', async () => {
    await openNarrow();
    const select = screen.getByLabelText('Sort by') as HTMLSelectElement;
    expect(select.value).toBe('name|asc');
    fireEvent.change(select, { target: { value: 'upload_time|desc' } });
    expect(select.value).toBe('upload_time|desc');
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBeNull();
  });
});
