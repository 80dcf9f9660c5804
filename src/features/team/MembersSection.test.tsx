// @vitest-environment jsdom
// The members section with a double of the pool's team operations (the real ones are tested in
// tests/crypto/pool-team.test.ts and e2e/team-folders.spec.ts): a reader sees the verified list
// with fingerprints and nothing to change; a refused list shows the warning naming the member the
// server added and offers no change; a removal that meets TEAM_CHANGED is made again on the new
// version once.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '../../../contract/folders.ts';
import type { TeamAnswer } from '../../../contract/team-folders.ts';
import { TeamManifestInvalidError, type CryptoPool, type FolderKeysHandle, type PrivateKeyHandle, type VerifiedTeam } from '../../../workers/index.ts';
import { installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderWithProviders, signedInState, testUser } from '../../app/testing/renderWithProviders.tsx';
import { makeStore } from '../../app/store.ts';
import { TEAM_DIALOG_TEXTS, TEAM_TEXTS } from '../../lib/userTexts.ts';
import { MembersSection } from './MembersSection.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

const folder: Folder = {
  id: 9, title: 'Team', description: null, creation_date: '2030-01-01T00:00:00.000Z', expiration_date: null, last_upload_time: null,
  is_active: true, has_password: false, require_email_verification: false, allowed_emails: null, perform_mime_check: true, link_token: 'tok',
  has_undownloaded_files: false, storage_limit_bytes: null, file_limit: null, retention_days: null, used_bytes: 0, used_files: 0,
  my_role: 'reader', is_team: true,
};

const hash = (c: string) => c.repeat(64);
const answer: TeamAnswer = {
  manifests: [{ manifest: 'bQ==', signature: 'cw==', signer_public_key_spki: 'aw==' }],
  members: [
    { user_id: 1, username: 'alice', display_name: null, role: 'reader', public_key_spki: 'aw==', is_disabled: false, notify: false },
    { user_id: 2, username: 'olga', display_name: 'Olga Owner', role: 'owner', public_key_spki: 'aw==', is_disabled: false, notify: false },
    { user_id: 3, username: 'bob', display_name: null, role: 'reader', public_key_spki: 'aw==', is_disabled: true, notify: false },
  ],
  epochs: [{ epoch: 1, public_key_spki: 'aw==', created_at: '2030-01-02T00:00:00.000Z' }],
  my_envelopes: [{ epoch: 1, envelope: 'ZQ==' }],
  current_epoch: 1,
};

function verified(aliceRole: 'reader' | 'manager', seq = 1): VerifiedTeam {
  return {
    folderId: 9, seq, firstHash: hash('f'), headHash: hash('h'), currentEpoch: 1, unlisted: [], heldEpochs: [1],
    epochs: [{ epoch: 1, keyHash: hash('e'), createdAt: '2030-01-02T00:00:00.000Z' }],
    members: [
      { userId: 2, username: 'olga', role: 'owner', keyHash: hash('a') },
      { userId: 1, username: 'alice', role: aliceRole, keyHash: hash('b') },
      { userId: 3, username: 'bob', role: 'reader', keyHash: hash('c') },
    ],
  } as VerifiedTeam;
}

const privateKey = { id: 'pk', kind: 'private' } as PrivateKeyHandle;
const folderKeys = { id: 'fk', kind: 'folder' } as FolderKeysHandle;

function render(pool: Partial<CryptoPool>, handlers: Record<string, FakeHandler>, role: Folder['my_role'] = 'reader') {
  const api = installFakeApi({ 'GET /api/folders/9/team': () => ({ status: 200, body: answer }), 'GET /api/org/directory': () => ({ status: 200, body: { accounts: [] } }), ...handlers });
  restore = api.restore;
  // The private key unlocked, as the keys feature holds it.
  const store = makeStore({ ...signedInState({ ...testUser, public_key_spki: 'aw==' }), keys: { privateKey } });
  renderWithProviders(<MembersSection folder={{ ...folder, my_role: role }} />, { store, cryptoPool: () => ({ releaseKey: async () => undefined, ...pool }) as CryptoPool });
  return api;
}

describe('MembersSection', () => {
  it('shows a reader the verified members with fingerprints from the signed key hashes, and nothing to change', async () => {
    render({ openTeam: vi.fn(async () => ({ team: verified('reader'), folderKeys })) }, {});
    const list = await screen.findByRole('list', { name: TEAM_TEXTS.title });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(within(list).getByRole('listitem', { name: 'olga' })).getByTestId('member-fingerprint').textContent).toBe('AAAA '.repeat(10).trim());
    expect(within(list).getByRole('listitem', { name: 'olga' }).textContent).toContain('Olga Owner (olga)');
    expect(screen.queryByRole('button', { name: TEAM_TEXTS.add })).toBeNull();
    expect(screen.queryByRole('button', { name: TEAM_TEXTS.removeLabel('bob') })).toBeNull();
    // Disabled members are pointed out to managers only.
    expect(screen.queryByText(/Disabled accounts are still members/)).toBeNull();
  });

  it('warns, naming the member the server added, and offers no change when the list is refused', async () => {
    const refusal = new TeamManifestInvalidError('unlisted-member', 'refused', { unlisted: [{ userId: 66, username: 'mallory' }] });
    render({ openTeam: vi.fn(async () => Promise.reject(refusal)) }, {}, 'manager');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(TEAM_TEXTS.refusedTitle);
    expect(alert.textContent).toContain('mallory');
    expect(screen.queryByRole('button', { name: TEAM_TEXTS.add })).toBeNull();
  });

  it('a manager removes a member: after TEAM_CHANGED the change is signed again on the new version and stored', async () => {
    let opened = 0;
    const openTeam = vi.fn(async () => ({ team: verified('manager', ++opened), folderKeys }));
    const changeTeam = vi.fn(async (_key: PrivateKeyHandle, _keys: FolderKeysHandle, team: VerifiedTeam, _change: unknown) => ({ expected_seq: team.seq, manifest: 'bQ==', signature: 'cw==', envelopes: [] }));
    let posts = 0;
    const api = render({ openTeam, changeTeam } as Partial<CryptoPool>, {
      'POST /api/folders/9/team/versions': () => (++posts === 1 ? { status: 409, body: { detail: 'changed', code: 'TEAM_CHANGED' } } : { status: 200, body: { seq: 3, current_epoch: 2 } }),
    }, 'manager');
    expect(await screen.findByText(/Disabled accounts are still members: bob/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: TEAM_TEXTS.removeLabel('bob') }));
    const dialog = await screen.findByRole('dialog', { name: TEAM_DIALOG_TEXTS.removeTitle('bob') });
    expect(dialog.textContent).toContain('Files they could open before stay readable to them');
    fireEvent.click(within(dialog).getByRole('button', { name: TEAM_DIALOG_TEXTS.removeConfirm }));
    await waitFor(() => expect(posts).toBe(2));
    expect(changeTeam.mock.calls.map((call) => call[2].seq)).toEqual([1, 2]);
    expect(changeTeam.mock.calls[1]![3]).toEqual({ remove: [3] });
    expect(JSON.parse(api.requests.filter((r) => r.method === 'POST').at(-1)!.body)).toMatchObject({ expected_seq: 2 });
  });
});
