// @vitest-environment jsdom
// The dashboard on a narrow screen: every folder is a card with what the table's row
// shows and its actions, and the sort headers become one select.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Folder } from '../../api/types.ts';
import { installFakeApi } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState } from '../../app/testing/renderWithProviders.tsx';

const HOUR = 3_600_000;
const folder: Folder = {
  id: 7,
  title: 'Tax documents',
  description: 'For the accountant',
  creation_date: new Date(Date.now() - 48 * HOUR).toISOString(),
  expiration_date: null,
  last_upload_time: null,
  is_active: true,
  has_password: true,
  require_email_verification: true,
  allowed_emails: ['a@example.com'],
  perform_mime_check: true,
  link_token: 'tok-7',
  has_undownloaded_files: true,
  storage_limit_bytes: null,
  file_limit: null,
  retention_days: null,
  used_bytes: 0,
  used_files: 0,
  my_role: 'owner',
  is_team: false,
};
const folders: Folder[] = [folder, { ...folder, id: 8, title: '', description: null, is_active: false, has_password: false, require_email_verification: false, allowed_emails: null, has_undownloaded_files: false }];

let restore = () => {};
const realMatchMedia = window.matchMedia;

// A phone: every media query of the narrow layouts (max-width) matches.
beforeEach(() => {
  window.matchMedia = (query: string) =>
    ({ matches: query.includes('max-width'), media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false }) as MediaQueryList;
});
afterEach(() => {
  cleanup();
  restore();
  window.matchMedia = realMatchMedia;
});

async function openDashboard() {
  const api = installFakeApi({ 'GET /api/folders/': () => ({ status: 200, body: folders }) });
  restore = api.restore;
  renderAppAt('/dashboard', { preloadedState: signedInState() });
  const list = await screen.findByRole('list', { name: 'Folders' });
  return { api, list };
}

describe('Dashboard folder cards (narrow screens)', () => {
  it('shows one card per folder, named by its title, with status, hints, dates and actions; no table', async () => {
    const { list } = await openDashboard();
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);

    const card = within(list).getByRole('listitem', { name: 'Tax documents' });
    expect(within(card).getByRole('link', { name: 'Tax documents' }).getAttribute('href')).toBe('/folders/view/7');
    expect(within(card).getByText('For the accountant')).toBeVisible();
    for (const text of ['Active', 'New files', 'Password', 'E-mail verification', '1 allowed address', 'Created', 'Expires', 'Last Upload', 'Never', '-']) {
      expect(within(card).getByText(text, { exact: true })).toBeVisible();
    }
    expect(within(card).getByRole('button', { name: 'Copy Link' })).toBeEnabled();
    expect(within(card).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/folders/edit/7');

    const untitled = within(list).getByRole('listitem', { name: '(No Title)' });
    expect(within(untitled).getByText('Inactive')).toBeVisible();
    expect(within(untitled).getByText('Open link')).toBeVisible();
  });

  it("Delete on a card asks with the spec's text", async () => {
    const { list } = await openDashboard();
    fireEvent.click(within(within(list).getByRole('listitem', { name: 'Tax documents' })).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete the folder "Tax documents"? This action cannot be undone.')).toBeVisible();
  });

  it('the sort select offers every sortable column both ways and asks the server again for the chosen order', async () => {
    const { api } = await openDashboard();
    const select = screen.getByLabelText('Sort by') as HTMLSelectElement;
    expect(select.value).toBe('creation_date|desc');
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'Title, ascending',
      'Title, descending',
      'Created, ascending',
      'Created, descending',
      'Expires, ascending',
      'Expires, descending',
      'Last Upload, ascending',
      'Last Upload, descending',
    ]);
    fireEvent.change(select, { target: { value: 'title|asc' } });
    await waitFor(() => expect(api.requests.filter((request) => request.path === '/api/folders/')).toHaveLength(2));
    expect(select.value).toBe('title|asc');
  });
});
