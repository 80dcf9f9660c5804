// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Folder } from '../../api/types.ts';
import { installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState } from '../../app/testing/renderWithProviders.tsx';
import { NOTIFICATION_TEXTS } from '../../lib/userTexts.ts';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

const folder: Folder = {
  id: 5,
  title: 'Audit 2030',
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
  storage_limit_bytes: null,
  file_limit: null,
  retention_days: null,
  used_bytes: 0,
  used_files: 0,
  my_role: 'owner',
  is_team: false,
};

function open(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi({ 'GET /api/folders/5': () => ({ status: 200, body: folder }), ...handlers });
  restore = api.restore;
  renderAppAt('/folders/edit/5', { preloadedState: signedInState() });
  return api;
}

// The edit route is loaded lazily; on a loaded machine that takes longer than findBy's default second.
const SLOW = { timeout: 10_000 };
const section = async () => screen.findByRole('region', { name: NOTIFICATION_TEXTS.title }, SLOW);

describe('Upload notifications on the edit screen', () => {
  it('shows the saved setting and saves a change on its own', async () => {
    const api = open({
      'GET /api/folders/5/notifications': () => ({ status: 200, body: { mode: 'each', include_file_names: false } }),
      'PUT /api/folders/5/notifications': (request) => ({ status: 200, body: JSON.parse(request.body) }),
    });
    const region = await section();
    const each = (await within(region).findByRole('radio', { name: NOTIFICATION_TEXTS.each }, SLOW)) as HTMLInputElement;
    expect(each.checked).toBe(true);
    expect((within(region).getByRole('checkbox', { name: NOTIFICATION_TEXTS.includeNames }) as HTMLInputElement).checked).toBe(false);

    fireEvent.click(within(region).getByRole('radio', { name: NOTIFICATION_TEXTS.digest }));
    fireEvent.click(within(region).getByRole('checkbox', { name: NOTIFICATION_TEXTS.includeNames }));
    fireEvent.click(within(region).getByRole('button', { name: NOTIFICATION_TEXTS.save }));
    expect((await screen.findByText(NOTIFICATION_TEXTS.saved, {}, SLOW)).textContent).toBe(NOTIFICATION_TEXTS.saved);
    const put = api.requests.find((request) => request.method === 'PUT');
    expect(JSON.parse(put!.body)).toEqual({ mode: 'digest', include_file_names: true });
    // The folder form was not sent.
    expect(api.requests.filter((request) => request.method === 'PUT' && request.path === '/api/folders/5')).toHaveLength(0);
  });

  it('turning notifications off disables the file-name choice; a refused save shows the error', async () => {
    open({
      'GET /api/folders/5/notifications': () => ({ status: 200, body: { mode: 'each', include_file_names: true } }),
      'PUT /api/folders/5/notifications': () => ({ status: 503, body: { detail: 'Database unavailable' } }),
    });
    const region = await section();
    fireEvent.click(await within(region).findByRole('radio', { name: NOTIFICATION_TEXTS.off }, SLOW));
    expect((within(region).getByRole('checkbox', { name: NOTIFICATION_TEXTS.includeNames }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(region).getByRole('button', { name: NOTIFICATION_TEXTS.save }));
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toBe('Server Error: Database unavailable'), SLOW);
  });
});
