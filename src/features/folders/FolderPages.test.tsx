// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Folder } from '../../api/types.ts';
import { installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderAppAt, renderWithProviders, signedInState } from '../../app/testing/renderWithProviders.tsx';
import { EditFolderPage } from './EditFolderPage.tsx';

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
  id: 5,
  title: 'Audit 2030',
  description: 'Scans',
  creation_date: '2030-01-01T00:00:00.000Z',
  expiration_date: '2031-02-03T04:05:06.000Z',
  last_upload_time: null,
  is_active: true,
  has_password: true,
  require_email_verification: true,
  allowed_emails: ['a@example.com'],
  perform_mime_check: true,
  link_token: 'tok',
  has_undownloaded_files: false,
  storage_limit_bytes: null,
  file_limit: null,
  retention_days: null,
  used_bytes: 0,
  used_files: 0,
  my_role: 'owner',
  is_team: false,
};

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const sentBody = (api: ReturnType<typeof withApi>, method: string) => JSON.parse(api.requests.find((r) => r.method === method)!.body);

async function openCreate(handlers: Record<string, FakeHandler> = {}) {
  const api = withApi({ 'GET /api/folders/': () => ({ status: 200, body: [] }), ...handlers });
  const rendered = renderAppAt('/folders/new', { preloadedState: signedInState() });
  await screen.findByRole('heading', { name: 'Create New Upload Folder' });
  // The form waits for the server's default limits (GET /api/storage; without an answer it sends none).
  await screen.findByRole('form', { name: 'Create folder' });
  return { api, ...rendered };
}

describe('Create New Upload Folder', () => {
  it('has every field with its defaults and a back link', async () => {
    await openCreate();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(field('Title *').value).toBe('');
    expect(field('Description').value).toBe('');
    expect((field('Perform MIME check') as HTMLInputElement).checked).toBe(true);
    expect(field('After a number of days').checked).toBe(true);
    expect(field('Expires in (days)').value).toBe('30');
    expect(screen.queryByLabelText('Folder is active')).toBeNull();
    expect(screen.queryByLabelText('Allowed e-mails')).toBeNull();
    expect(screen.queryByLabelText('Link password')).toBeNull();
  });

  it('the confirm-password field is disabled until a password is typed', async () => {
    await openCreate();
    fireEvent.click(field('Protect the upload link with a password'));
    expect(field('Confirm link password').disabled).toBe(true);
    type('Link password', 'abc');
    expect(field('Confirm link password').disabled).toBe(false);
  });

  it('allowed e-mails are visible only when e-mail verification is on', async () => {
    await openCreate();
    fireEvent.click(field('Require e-mail verification'));
    expect(field('Allowed e-mails')).toBeVisible();
    fireEvent.click(field('Require e-mail verification'));
    await waitFor(() => expect(screen.queryByLabelText('Allowed e-mails')).toBeNull());
  });

  it('switching the expiration mode shows the matching field and clears the other value', async () => {
    await openCreate();
    fireEvent.click(field('On a date'));
    expect(screen.queryByLabelText('Expires in (days)')).toBeNull();
    expect(field('Expiration date').value).toBe('');
    fireEvent.click(field('Never expires'));
    expect(screen.queryByLabelText('Expiration date')).toBeNull();
    fireEvent.click(field('After a number of days'));
    expect(field('Expires in (days)').value).toBe('30');
  });

  it('shows the validation messages and sends nothing', async () => {
    const { api } = await openCreate();
    fireEvent.click(field('Protect the upload link with a password'));
    type('Link password', 'abc');
    type('Confirm link password', 'abd');
    type('Expires in (days)', '0');
    fireEvent.click(screen.getByRole('button', { name: 'Create Folder' }));
    expect(await screen.findByText('Title is required.')).toBeVisible();
    expect(screen.getByText('Passwords do not match.')).toBeVisible();
    expect(screen.getByText('Enter a whole number of days (at least 1).')).toBeVisible();
    fireEvent.click(field('On a date'));
    fireEvent.click(screen.getByRole('button', { name: 'Create Folder' }));
    expect(await screen.findByText('Invalid date format entered.')).toBeVisible();
    // (A date that does not exist, 'Invalid date/time value.', cannot be typed into the browser's
    // date-time field; folderForm.test.ts covers that rule.)
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('sends the payload and goes to the dashboard', async () => {
    const { api, router } = await openCreate({
      'POST /api/folders/': () => ({ status: 201, body: { ...folder, title: 'New one' } }),
    });
    type('Title *', '  New one ');
    type('Description', 'Hello');
    fireEvent.click(field('Protect the upload link with a password'));
    type('Link password', 'pw-123');
    type('Confirm link password', 'pw-123');
    fireEvent.click(field('Require e-mail verification'));
    type('Allowed e-mails', 'a@example.com, , b@example.com');
    fireEvent.click(field('Perform MIME check'));
    type('Expires in (days)', '7');
    fireEvent.click(screen.getByRole('button', { name: 'Create Folder' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sentBody(api, 'POST')).toEqual({
      title: 'New one',
      description: 'Hello',
      require_email_verification: true,
      allowed_emails: ['a@example.com', 'b@example.com'],
      perform_mime_check: false,
      expires_in_days: 7,
      link_password: 'pw-123',
    });
  });

  it("a failed save shows 'An error occurred while saving. Please check details.' and the mapped error", async () => {
    await openCreate({
      'POST /api/folders/': () => ({ status: 422, body: { detail: [{ loc: ['body', 'title'], msg: 'Title is required' }] } }),
    });
    type('Title *', 'x');
    fireEvent.click(screen.getByRole('button', { name: 'Create Folder' }));
    const alert = (await screen.findByText('An error occurred while saving. Please check details.')).closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getByText('title: Title is required')).toBeVisible();
  });
});

describe('Edit Upload Folder', () => {
  it("a non-numeric id shows 'Invalid Folder ID'", async () => {
    withApi({});
    renderAppAt('/folders/edit/abc', { preloadedState: signedInState() });
    expect(await screen.findByText('Invalid Folder ID')).toBeVisible();
  });

  it("no id shows 'Folder ID is missing.'", async () => {
    withApi({});
    const rootRoute = createRootRoute({ component: () => <EditFolderPage /> });
    const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) });
    renderWithProviders(<RouterProvider router={router as never} />, { preloadedState: signedInState() });
    expect(await screen.findByText('Folder ID is missing.')).toBeVisible();
  });

  it("a 404 shows 'Folder not found or could not be loaded.'", async () => {
    withApi({ 'GET /api/folders/9': () => ({ status: 404, body: { detail: 'Folder not found' } }) });
    renderAppAt('/folders/edit/9', { preloadedState: signedInState() });
    expect(await screen.findByText('Folder not found or could not be loaded.')).toBeVisible();
  });

  it('another load failure shows the mapped API error', async () => {
    withApi({ 'GET /api/folders/9': () => ({ status: 503, body: { detail: 'Database unavailable' } }) });
    renderAppAt('/folders/edit/9', { preloadedState: signedInState() });
    expect(await screen.findByText('Server Error: Database unavailable')).toBeVisible();
  });

  it('pre-fills the form (date mode for a folder with an expiry), keeps the password when unticked, and goes back with the success message', async () => {
    const api = withApi({
      'GET /api/folders/5': () => ({ status: 200, body: folder }),
      'PUT /api/folders/5': () => ({ status: 200, body: { ...folder, title: 'Audit 2031' } }),
      'GET /api/folders/': () => ({ status: 200, body: [] }),
    });
    const { router } = renderAppAt('/folders/edit/5', { preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { name: 'Edit Upload Folder: Audit 2030' })).toBeVisible();
    expect(field('Title *').value).toBe('Audit 2030');
    expect(field('Description').value).toBe('Scans');
    expect(field('On a date').checked).toBe(true);
    expect(new Date(field('Expiration date').value).toISOString()).toBe(folder.expiration_date);
    expect(field('Allowed e-mails').value).toBe('a@example.com');
    expect(field('Folder is active').checked).toBe(true);
    expect(field('Change or remove the link password').checked).toBe(false);

    type('Title *', 'Audit 2031');
    fireEvent.click(field('Folder is active'));
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Folder "Audit 2031" updated successfully!')).toBeVisible();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    const body = sentBody(api, 'PUT');
    expect(body).toEqual({
      title: 'Audit 2031',
      description: 'Scans',
      require_email_verification: true,
      allowed_emails: ['a@example.com'],
      perform_mime_check: true,
      expiration_date: folder.expiration_date,
      is_active: false,
    });
  });

  it('ticking the password option and leaving it blank removes the password', async () => {
    const api = withApi({
      'GET /api/folders/5': () => ({ status: 200, body: { ...folder, expiration_date: null } }),
      'PUT /api/folders/5': () => ({ status: 200, body: { ...folder, has_password: false } }),
      'GET /api/folders/': () => ({ status: 200, body: [] }),
    });
    renderAppAt('/folders/edit/5', { preloadedState: signedInState() });
    await screen.findByRole('heading', { name: 'Edit Upload Folder: Audit 2030' });
    expect(field('Never expires').checked).toBe(true);
    fireEvent.click(field('Change or remove the link password'));
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(sentBody(api, 'PUT')).toMatchObject({ link_password: '', expiration_date: null });
  });
});
