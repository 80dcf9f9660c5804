// @vitest-environment jsdom
// The storage parts of the admin screens in the real app shell against a fake API: the
// dashboard's storage panel and per-folder usage (in words, not colour alone), the folder form's
// limits (defaults on create, only what changed on edit), the files screen's unfinished uploads
// with Cancel, and retention's "deleted on".
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Folder } from '../../api/types.ts';
import type { StorageOverview, UnfinishedUpload } from '../../api/storageApi.ts';
import { installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState } from '../../app/testing/renderWithProviders.tsx';

const MiB = 1024 * 1024;
let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

function withApi(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi(handlers);
  restore = api.restore;
  return api;
}

const folder: Folder = {
  id: 7,
  title: 'Client scans',
  description: null,
  creation_date: '2030-01-01T00:00:00.000Z',
  expiration_date: null,
  last_upload_time: null,
  is_active: true,
  has_password: false,
  require_email_verification: false,
  allowed_emails: null,
  perform_mime_check: true,
  link_token: 'tok',
  has_undownloaded_files: false,
  storage_limit_bytes: 100 * MiB,
  file_limit: 50,
  retention_days: null,
  used_bytes: 95 * MiB,
  used_files: 12,
  my_role: 'owner',
  is_team: false,
};

const overview: StorageOverview = {
  used_bytes: 95 * MiB,
  used_files: 12,
  folders: 1,
  store: 'disk',
  free_bytes: 2048 * MiB,
  reserve_bytes: 64 * MiB,
  folder_defaults: { storage_limit_bytes: 10240 * MiB, file_limit: 10_000, retention_days: null },
};

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
const sentBody = (api: ReturnType<typeof withApi>, method: string) => JSON.parse(api.requests.find((r) => r.method === method)!.body);

describe('dashboard storage', () => {
  it('shows the total, the free disk and each folder against its limits, nearly full said in words', async () => {
    withApi({
      'GET /api/folders/': () => ({ status: 200, body: [folder, { ...folder, id: 8, title: 'Open', storage_limit_bytes: null, file_limit: null, used_bytes: 0, used_files: 0 }] }),
      'GET /api/storage': () => ({ status: 200, body: overview }),
    });
    renderAppAt('/dashboard', { preloadedState: signedInState() });
    const panel = await screen.findByRole('region', { name: 'Storage' });
    expect(await within(panel).findByText('95.0 MB in 12 files across 1 folder')).toBeVisible();
    expect(within(panel).getByText('2.0 GB (64.0 MB of it kept free for the server)')).toBeVisible();

    const table = await screen.findByRole('table', { name: 'Folders' });
    expect(within(table).getByRole('columnheader', { name: 'Storage' })).toBeVisible();
    const row = screen.getByText('Client scans').closest('tr')!;
    // (Text is matched with its spaces normalised: the sizes use no-break spaces.)
    expect(within(row).getByText('95.0 MB of 100.0 MB')).toBeVisible();
    expect(within(row).getByText('12 of 50 files')).toBeVisible();
    expect(within(row).getByText('Nearly full')).toBeVisible();
    const bar = within(row).getByRole('progressbar', { name: 'Storage used by Client scans' });
    expect(bar.getAttribute('aria-valuenow')).toBe('95');
    expect(bar.getAttribute('aria-valuetext')).toBe('95.0\u00a0MB of 100.0\u00a0MB');
    const open = screen.getByText('Open').closest('tr')!;
    expect(within(open).getByText('0 B (no limit)')).toBeVisible();
    expect(within(open).queryByRole('progressbar')).toBeNull();
  });

  it('warns in words when the disk is down to its reserve, and says so with S3', async () => {
    withApi({ 'GET /api/folders/': () => ({ status: 200, body: [] }), 'GET /api/storage': () => ({ status: 200, body: { ...overview, free_bytes: 10 * MiB } }) });
    renderAppAt('/dashboard', { preloadedState: signedInState() });
    expect(await screen.findByText('Uploads are refused: the disk is down to its reserve. Delete files or free space on the server.')).toBeVisible();
  });
});

describe('the folder form\'s limits', () => {
  it('a new folder starts from the server\'s defaults; choosing no limit sends null', async () => {
    const api = withApi({
      'GET /api/folders/': () => ({ status: 200, body: [] }),
      'GET /api/storage': () => ({ status: 200, body: overview }),
      'POST /api/folders/': () => ({ status: 201, body: folder }),
    });
    renderAppAt('/folders/new', { preloadedState: signedInState() });
    await screen.findByRole('form', { name: 'Create folder' });
    expect(field('Storage limit (MB)').value).toBe('10240');
    expect(field('Maximum number of files').value).toBe('10000');
    expect(field('Delete files automatically').checked).toBe(false);
    expect(screen.getByText('Files are kept until you delete them.')).toBeVisible();

    fireEvent.change(field('Title *'), { target: { value: 'Bounded' } });
    fireEvent.click(field('Limit the number of files'));
    expect(screen.getByText('No file limit.')).toBeVisible();
    fireEvent.click(field('Delete files automatically'));
    fireEvent.change(field('Delete files after (days)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Folder' }));
    expect(await screen.findByText('Enter a whole number of days (at least 1).')).toBeVisible();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.change(field('Delete files after (days)'), { target: { value: '30' } });
    fireEvent.change(field('Storage limit (MB)'), { target: { value: '500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Folder' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'POST')).toBe(true));
    expect(sentBody(api, 'POST')).toMatchObject({ storage_limit_bytes: 500 * MiB, file_limit: null, retention_days: 30 });
  });

  it('editing sends only the limits that changed', async () => {
    const api = withApi({
      'GET /api/folders/': () => ({ status: 200, body: [folder] }),
      'GET /api/folders/7': () => ({ status: 200, body: { ...folder, storage_limit_bytes: 1_500_000 } }),
      'GET /api/folders/7/notifications': () => ({ status: 200, body: { mode: 'each_upload', include_file_names: false } }),
      'PUT /api/folders/7': () => ({ status: 200, body: folder }),
    });
    renderAppAt('/folders/edit/7', { preloadedState: signedInState() });
    await screen.findByRole('form', { name: 'Edit folder' });
    expect(field('Storage limit (MB)').value).toBe('1.43');
    fireEvent.change(field('Maximum number of files'), { target: { value: '60' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    const body = sentBody(api, 'PUT');
    expect(body.file_limit).toBe(60);
    expect('storage_limit_bytes' in body).toBe(false);
    expect('retention_days' in body).toBe(false);
  });
});

describe('files screen', () => {
  const upload: UnfinishedUpload = {
    id: 'a'.repeat(32),
    filename: 'scan.pdf',
    relative_path: 'Tax',
    upload_length: 20 * MiB,
    received_bytes: 5 * MiB,
    created_at: Date.parse('2030-01-02T10:00:00Z'),
    last_activity_at: Date.parse('2030-01-02T11:00:00Z'),
  };

  function filesScreen(overrides: Partial<Folder>, uploads: UnfinishedUpload[], extra: Record<string, FakeHandler> = {}) {
    return withApi({
      'GET /api/folders/7': () => ({ status: 200, body: { ...folder, ...overrides } }),
      'GET /api/folders/7/files': () => ({
        status: 200,
        body: [
          {
            id: 1,
            original_filename: 'a.pdf',
            stored_filename: 'u/a.pdf',
            relative_path: '.',
            file_size: 2048,
            file_hash: 'f'.repeat(64),
            encrypted_key: 'k',
            encryption_iv: 'iv',
            upload_time: '2030-01-01T12:00:00.000Z',
            last_downloaded_admin: null,
          },
        ],
      }),
      'GET /api/folders/7/uploads': () => ({ status: 200, body: uploads }),
      'GET /api/download/links/folder/7': () => ({ status: 200, body: [] }),
      'GET /api/activity': () => ({ status: 200, body: { entries: [], next_before_seq: null } }),
      ...extra,
    });
  }

  it('lists unfinished uploads with the bytes they hold; Cancel asks, then frees them', async () => {
    let cancelled = false;
    const api = filesScreen({}, [upload], {
      'DELETE /api/folders/7/uploads/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa': () => {
        cancelled = true;
        return { status: 204 };
      },
    });
    renderAppAt('/folders/view/7', { preloadedState: signedInState() });
    const section = await screen.findByRole('region', { name: 'Unfinished uploads' });
    const item = await within(section).findByRole('listitem', { name: 'Tax/scan.pdf' });
    expect(within(item).getByText(/5\.0 MB of 20\.0 MB received · last activity/)).toBeVisible();

    fireEvent.click(within(item).getByRole('button', { name: 'Cancel the upload of Tax/scan.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this upload?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(cancelled).toBe(false);
    // The page is hidden from assistive technology until the dialog has closed.
    fireEvent.click(await within(item).findByRole('button', { name: 'Cancel the upload of Tax/scan.pdf' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Cancel this upload?' })).getByRole('button', { name: 'Cancel Upload' }));
    await waitFor(() => expect(cancelled).toBe(true));
    // The list and the folder reload (its usage changed).
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'GET' && r.path === '/api/folders/7/uploads').length).toBeGreaterThan(1));
  });

  it('says when files are deleted under the folder\'s retention', async () => {
    filesScreen({ retention_days: 30 }, []);
    renderAppAt('/folders/view/7', { preloadedState: signedInState() });
    expect(await screen.findByText('Files are deleted 30 days after their upload.', {})).toBeVisible();
    const due = new Date(Date.parse('2030-01-01T12:00:00.000Z') + 30 * 86_400_000).toLocaleString(undefined, {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
    });
    expect(screen.getByText(`deleted on ${due}`)).toBeVisible();
    expect(await screen.findByText('No unfinished uploads.')).toBeVisible();
  });

  it('shows no retention dates when the folder keeps its files', async () => {
    filesScreen({ retention_days: null }, []);
    renderAppAt('/folders/view/7', { preloadedState: signedInState() });
    await screen.findByRole('table', { name: 'Files' });
    expect(screen.queryByText(/deleted on/)).toBeNull();
    expect(screen.queryByTestId('retention-note')).toBeNull();
  });
});
