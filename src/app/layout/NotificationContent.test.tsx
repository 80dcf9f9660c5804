// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useNotifier, type Notifier } from '../notifier.ts';
import { renderWithProviders } from '../testing/renderWithProviders.tsx';

afterEach(cleanup);

function Capture({ into }: { into: { notifier?: Notifier } }) {
  into.notifier = useNotifier();
  return null;
}

async function showAll(): Promise<void> {
  const captured: { notifier?: Notifier } = {};
  renderWithProviders(<Capture into={captured} />);
  act(() => {
    captured.notifier!.success('Folder "Tax" created.');
    captured.notifier!.info('Export started.');
    captured.notifier!.warning('Please select at least one file to create a download link.');
  });
  await screen.findByText('Please select at least one file to create a download link.');
}

describe('NotificationContent', () => {
  it('errors and warnings interrupt (role alert); success and info are announced politely (role status)', async () => {
    await showAll();
    expect(screen.getByText('Folder "Tax" created.').closest('[role]')?.getAttribute('role')).toBe('status');
    expect(screen.getByText('Export started.').closest('[role]')?.getAttribute('role')).toBe('status');
    expect(screen.getByText('Please select at least one file to create a download link.').closest('[role]')?.getAttribute('role')).toBe('alert');
  });

  it('several notifications at once share no id (notistack gave each id="notistack-snackbar")', async () => {
    await showAll();
    const ids = [...document.querySelectorAll('.notistack-MuiContent [id], .notistack-MuiContent[id]')].map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.querySelectorAll('.notistack-MuiContent')).toHaveLength(3);
  });
});
