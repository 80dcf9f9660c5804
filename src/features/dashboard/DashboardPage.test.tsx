// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '../../api/types.ts';
import { heldResponse, installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState } from '../../app/testing/renderWithProviders.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
  Reflect.deleteProperty(navigator, 'clipboard');
});

function withApi(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi(handlers);
  restore = api.restore;
  return api;
}

const HOUR = 3_600_000;
const base: Folder = {
  id: 1,
  title: 'Tax documents',
  description: 'For the accountant',
  creation_date: new Date(Date.now() - 48 * HOUR).toISOString(),
  expiration_date: null,
  last_upload_time: null,
  is_active: true,
  has_password: false,
  require_email_verification: false,
  allowed_emails: null,
  perform_mime_check: true,
  link_token: 'tok-active',
  has_undownloaded_files: false,
  storage_limit_bytes: null,
  file_limit: null,
  retention_days: null,
  used_bytes: 0,
  used_files: 0,
  my_role: 'owner',
  is_team: false,
};

const folders: Folder[] = [
  { ...base, has_password: true, has_undownloaded_files: true, last_upload_time: new Date(Date.now() - HOUR).toISOString() },
  { ...base, id: 2, title: 'Old contracts', description: null, is_active: false, link_token: 'tok-inactive', require_email_verification: true, allowed_emails: ['a@example.com', 'b@example.com'] },
  { ...base, id: 3, title: 'Last year', description: null, expiration_date: new Date(Date.now() - HOUR).toISOString(), link_token: 'tok-expired' },
  { ...base, id: 4, title: '', description: null, link_token: 'tok-untitled', expiration_date: new Date(Date.now() + 24 * HOUR).toISOString() },
];

function rowOf(text: string): HTMLElement {
  const row = screen.getByText(text).closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}

async function openDashboard(handlers: Record<string, FakeHandler>) {
  const api = withApi(handlers);
  renderAppAt('/dashboard', { preloadedState: signedInState() });
  await screen.findByRole('heading', { name: 'Admin Dashboard' });
  return api;
}

describe('Admin Dashboard folder table', () => {
  it("shows 'Loading folders...' and then one row per folder with status, hints and display rules", async () => {
    const foldersAnswer = heldResponse();
    await openDashboard({ 'GET /api/folders/': foldersAnswer.handler });
    expect(await screen.findByText('Loading folders...')).toBeVisible();
    foldersAnswer.release({ status: 200, body: folders });
    await screen.findByRole('table', { name: 'Folders' });

    const active = rowOf('Tax documents');
    expect(within(active).getByText('Active')).toBeVisible();
    expect(within(active).getByText('Password')).toBeVisible();
    expect(within(active).getByText('New files')).toBeVisible();
    expect(within(active).getByText('Never')).toBeVisible();
    expect(within(active).getByRole('link', { name: 'Tax documents' }).getAttribute('href')).toBe('/folders/view/1');
    expect(within(active).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/folders/edit/1');

    const inactive = rowOf('Old contracts');
    expect(within(inactive).getByText('Inactive')).toBeVisible();
    expect(within(inactive).getByText('E-mail verification')).toBeVisible();
    expect(within(inactive).getByText('2 allowed addresses')).toBeVisible();
    expect(within(inactive).getByText('-')).toBeVisible(); // no upload yet
    expect(within(inactive).queryByText('New files')).toBeNull();

    expect(within(rowOf('Last year')).getByText('Expired')).toBeVisible();
    expect(within(rowOf('Last year')).getByText('Open link')).toBeVisible();
    expect(within(rowOf('(No Title)')).getByText('Active')).toBeVisible();
  });

  it('dates show in the browser locale with seconds', async () => {
    await openDashboard({ 'GET /api/folders/': () => ({ status: 200, body: folders }) });
    await screen.findByRole('table', { name: 'Folders' });
    const created = new Date(base.creation_date).toLocaleString(undefined, {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
    });
    expect(within(rowOf('Old contracts')).getByText(created)).toBeVisible();
  });

  it('sorts by creation date descending by default; clicking a header asks the server for that order', async () => {
    const api = await openDashboard({ 'GET /api/folders/': () => ({ status: 200, body: folders }) });
    await screen.findByRole('table', { name: 'Folders' });
    const created = screen.getByRole('columnheader', { name: /Created/ });
    expect(created.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Title/ })).getByRole('button'));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Title/ }).getAttribute('aria-sort')).toBe('ascending'));
    await waitFor(() => expect(api.requests.filter((r) => r.path === '/api/folders/')).toHaveLength(2));
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Title/ })).getByRole('button'));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Title/ }).getAttribute('aria-sort')).toBe('descending'));
  });

  it("the empty state reads 'No folders found' with a create button", async () => {
    await openDashboard({ 'GET /api/folders/': () => ({ status: 200, body: [] }) });
    expect(await screen.findByText('No folders found')).toBeVisible();
    expect(screen.getByText('Get started by creating a new upload folder.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Create Upload Folder' }).getAttribute('href')).toBe('/folders/new');
  });

  it("a load error shows a red banner starting 'Error:'", async () => {
    await openDashboard({ 'GET /api/folders/': () => ({ status: 500, body: { detail: 'Internal Server Error' } }) });
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toBe('Error: Server Error: Internal Server Error');
  });

  it('Delete asks for confirmation with the exact text, deletes and reloads the list', async () => {
    let current = folders;
    const api = await openDashboard({
      'GET /api/folders/': () => ({ status: 200, body: current }),
      'DELETE /api/folders/2': () => {
        current = folders.filter((folder) => folder.id !== 2);
        return { status: 204 };
      },
    });
    await screen.findByRole('table', { name: 'Folders' });
    fireEvent.click(within(rowOf('Old contracts')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete the folder "Old contracts"? This action cannot be undone.')).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Old contracts')).toBeNull());
    expect(api.requests.some((r) => r.method === 'DELETE' && r.path === '/api/folders/2')).toBe(true);
    expect(await screen.findByText('Folder "Old contracts" deleted.')).toBeVisible();
  });

  it('Cancel in the confirmation deletes nothing', async () => {
    const api = await openDashboard({ 'GET /api/folders/': () => ({ status: 200, body: folders }) });
    await screen.findByRole('table', { name: 'Folders' });
    fireEvent.click(within(rowOf('(No Title)')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete the folder "(No Title)"? This action cannot be undone.')).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it("Copy Link copies {origin}/upload/{link_token} and reads 'Copied!' for 2 s", async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await openDashboard({ 'GET /api/folders/': () => ({ status: 200, body: folders }) });
    await screen.findByRole('table', { name: 'Folders' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.click(within(rowOf('Last year')).getByRole('button', { name: 'Copy Link' }));
      await vi.waitFor(() => expect(within(rowOf('Last year')).getByRole('button', { name: 'Copied!' })).toBeVisible());
      expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/upload/tok-expired`);
      await vi.advanceTimersByTimeAsync(1900);
      expect(within(rowOf('Last year')).getByRole('button', { name: 'Copied!' })).toBeVisible();
      await vi.advanceTimersByTimeAsync(200);
    } finally {
      vi.useRealTimers();
    }
    const copyAgain = await within(rowOf('Last year')).findByRole('button', { name: 'Copy Link' });
    expect(copyAgain).toBeVisible();
    expect(copyAgain, 'the link can be copied again').toBeEnabled();
  });

  it("a failed copy says 'Failed to copy link to clipboard.'", async () => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
      configurable: true,
    });
    await openDashboard({ 'GET /api/folders/': () => ({ status: 200, body: folders }) });
    await screen.findByRole('table', { name: 'Folders' });
    fireEvent.click(within(rowOf('Tax documents')).getByRole('button', { name: 'Copy Link' }));
    expect(await screen.findByText('Failed to copy link to clipboard.')).toBeVisible();
  });
});
