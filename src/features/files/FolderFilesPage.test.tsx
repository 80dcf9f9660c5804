// @vitest-environment jsdom
// The files screen's states and texts over a fake network (the real server and browser, with
// downloads, are covered by e2e/files.spec.ts).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileRecord } from '../../api/filesApi.ts';
import type { Folder } from '../../api/types.ts';
import { heldResponse, installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState } from '../../app/testing/renderWithProviders.tsx';
import { fileRecord } from './testing/fileRecords.ts';

let restore = () => {};
// The route loads its page lazily: transforming that module graph the first time took more than the
// 10 s a test waits for the screen on a loaded two-core machine, so it is loaded once up front.
beforeAll(async () => {
  await import('./FolderFilesPage.tsx');
}, 120_000);
afterEach(() => {
  cleanup();
  restore();
  vi.restoreAllMocks();
});

const folder: Folder = {
  id: 7,
  title: 'Client onboarding',
  description: null,
  creation_date: '2030-01-01T00:00:00Z',
  expiration_date: null,
  last_upload_time: null,
  is_active: true,
  has_password: false,
  require_email_verification: false,
  allowed_emails: null,
  perform_mime_check: true,
  link_token: 'tok',
  has_undownloaded_files: true,
  storage_limit_bytes: null,
  file_limit: null,
  retention_days: null,
  used_bytes: 0,
  used_files: 0,
  my_role: 'owner',
  is_team: false,
};

const downloaded = '2030-02-01T10:00:00Z';
const files: FileRecord[] = [
  fileRecord('1/contract.pdf', { id: 1, file_size: 1536 }),
  fileRecord('2/scans/id-front.jpg', { id: 2, last_downloaded_admin: downloaded }),
  fileRecord('3/scans/id-back.jpg', { id: 3, last_downloaded_admin: downloaded }),
];

function open(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi({
    'GET /api/folders/7': () => ({ status: 200, body: folder }),
    'GET /api/folders/7/files': () => ({ status: 200, body: files }),
    'GET /api/download/links/folder/7': () => ({ status: 200, body: [] }),
    ...handlers,
  });
  restore = api.restore;
  renderAppAt('/folders/view/7', { preloadedState: signedInState() });
  return api;
}

// Every wait for the screen's answer to a (fake) request gets this end. The first render loads the
// route's lazy chunk, and rendering the tree after the answer took over a second on the shared 2
// cores, so testing-library's default of 1 s made these tests fail under load while nothing was wrong.
const rendered = { timeout: 10_000 };

/**
 * Opens the screen and waits for the signal that the tree is rendered: the toolbar's selection
 * count, found by text (a role query with a name computes accessible names across the whole table
 * at every retry, which alone outlasted 10 s in a loaded CI run). After it, the tree's controls are
 * there, so the tests query them synchronously instead of racing a 1 s default.
 */
async function openRendered(handlers: Record<string, FakeHandler>, selection: string) {
  const api = open(handlers);
  await screen.findByText(selection, {}, rendered);
  return api;
}

// By its label: a role query with a name computes accessible names across the whole table each time.
const toolbar = () => screen.getByLabelText('File actions');

describe('Folder files screen', () => {
  it("shows 'Loading folder contents...', then the title, the toolbar and the tree", async () => {
    const filesAnswer = heldResponse();
    open({ 'GET /api/folders/7/files': filesAnswer.handler });
    expect(await screen.findByText('Loading folder contents...', {}, rendered)).toBeVisible();
    // The folder is there while its files are still asked for: the title above the loading text.
    expect(await screen.findByRole('heading', { name: 'Files in Folder: Client onboarding' }, rendered)).toBeVisible();
    expect(screen.getByText('Loading folder contents...')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    filesAnswer.release({ status: 200, body: files });
    const count = await screen.findByText('0 / 3 selected', {}, rendered);
    expect(count.closest('[role="toolbar"]')?.getAttribute('aria-label')).toBe('File actions');
    expect(within(toolbar()).getByRole('button', { name: 'Download All (3)' })).toBeVisible();
    expect(within(toolbar()).getByRole('button', { name: 'Download All (3)' })).toBeEnabled();
    const rows = within(screen.getByRole('table', { name: 'Files' })).getAllByRole('row');
    // Header, the directory before the file; the directory's files stay folded away.
    expect(rows[1]!.textContent).toContain('scans');
    expect(rows[2]!.textContent).toContain('contract.pdf');
    expect(rows[2]!.textContent).toContain('1.5 KB');
    expect(rows).toHaveLength(3);
  });

  it('shows the mapped error in place of the page when the folder cannot be loaded', async () => {
    open({ 'GET /api/folders/7': () => ({ status: 404, body: { detail: 'Folder not found' } }) });
    expect((await screen.findByRole('alert', {}, rendered)).textContent).toBe('Folder not found');
    expect(screen.queryByRole('toolbar')).toBeNull();
  });

  it("says 'This folder is empty.' and, with the filter, 'No files match ...'", async () => {
    open({ 'GET /api/folders/7/files': () => ({ status: 200, body: [] }) });
    expect(await screen.findByText('This folder is empty.', {}, rendered)).toBeVisible();
    cleanup();
    restore();
    await openRendered({ 'GET /api/folders/7/files': () => ({ status: 200, body: files.slice(1) }) }, '0 / 2 selected');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Never Downloaded' }));
    expect(await screen.findByText("No files match the 'Never Downloaded' filter.", {}, rendered)).toBeVisible();
    expect(within(toolbar()).getByText('0 / 0 selected')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Show All' }));
    expect(await screen.findByRole('table', { name: 'Files' }, rendered)).toBeVisible();
  });

  it('the filter counts only never-downloaded files and a directory without any gives an info message', async () => {
    await openRendered({}, '0 / 3 selected');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select folder scans' }));
    expect(within(toolbar()).getByText('2 / 3 selected')).toBeVisible();
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Never Downloaded' }));
    // The downloaded files left the selection with the filter on; only contract.pdf counts.
    expect(within(toolbar()).getByText('0 / 1 selected')).toBeVisible();
    expect(within(toolbar()).getByRole('button', { name: 'Download All (1)' })).toBeVisible();
    expect(within(toolbar()).getByRole('button', { name: 'Download All (1)' })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Download folder scans' }));
    expect(await screen.findByText(`No files in "scans" match the 'Never Downloaded' filter.`, {}, rendered)).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Expand scans' }));
    expect(await screen.findByText('Empty', {}, rendered)).toBeVisible();
  });

  it("Download Selected with nothing selected says 'No files selected for ZIP download.'", async () => {
    await openRendered({}, '0 / 3 selected');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Download Selected' }));
    expect(await screen.findByText('No files selected for ZIP download.', {}, rendered)).toBeVisible();
  });

  it("'Export Encrypted' saves the export ZIP of the selection, or of the whole folder, through the browser", async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} download=${this.hasAttribute('download')}`);
    });
    await openRendered({}, '0 / 3 selected');
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Export Encrypted' }));
    expect(clicked).toEqual(['/api/folders/7/export download=true']);
    expect(await screen.findByText('Exporting 3 files encrypted: your browser saves the ZIP (ciphertext and manifest).', {}, rendered)).toBeVisible();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select folder scans' }));
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Export Encrypted (2 selected)' }));
    expect(clicked[1]).toBe('/api/folders/7/export?file_ids=2,3 download=true');
  });

  it('Delete Selected confirms with the count and reports partial and total failures', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let answer = { deleted: 1, errors: [{ file_id: 1, detail: 'File not found' }] };
    const api = await openRendered({ 'POST /api/folders/files/delete': () => ({ status: 200, body: answer }) }, '0 / 3 selected');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all files' }));
    expect(within(toolbar()).getByText('3 / 3 selected')).toBeVisible();
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Delete Selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete files' }, rendered);
    expect(within(dialog).getByText('Are you sure you want to delete 3 files?')).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete 1 file(s). See console for details.', {}, rendered)).toBeVisible();
    expect(JSON.parse(api.requests.find((r) => r.method === 'POST')!.body)).toEqual({ file_ids: [1, 2, 3] });
    expect(api.requests.find((r) => r.method === 'POST')!.headers.get('content-type')).toContain('application/json');
    expect(warn).toHaveBeenCalled();

    answer = { deleted: 0, errors: [1, 2, 3].map((file_id) => ({ file_id, detail: 'File not found' })) };
    // The refetch after the delete answers the same three files, unselected again.
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all files' }, rendered));
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Delete Selected' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete files' }, rendered)).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete any of the selected files.', {}, rendered)).toBeVisible();
  });

  it('sorting by Uploaded toggles between ascending and descending', async () => {
    await openRendered(
      {
        'GET /api/folders/7/files': () => ({
          status: 200,
          body: [fileRecord('1/old.txt', { id: 11, upload_time: '2030-01-01T00:00:00Z' }), fileRecord('2/new.txt', { id: 12, upload_time: '2030-03-01T00:00:00Z' })],
        }),
      },
      '0 / 2 selected',
    );
    const table = screen.getByRole('table', { name: 'Files' });
    const names = () => within(table).getAllByRole('row').slice(1).map((row) => (row.textContent?.includes('old.txt') ? 'old' : 'new'));
    expect(names()).toEqual(['new', 'old']); // by name
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Uploaded/ })).getByRole('button'));
    await waitFor(() => expect(names()).toEqual(['old', 'new']), rendered);
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Uploaded/ })).getByRole('button'));
    await waitFor(() => expect(names()).toEqual(['new', 'old']), rendered);
    expect(screen.getByRole('columnheader', { name: /Uploaded/ }).getAttribute('aria-sort')).toBe('descending');
  });
});
