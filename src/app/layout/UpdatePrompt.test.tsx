// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILD_IDENTITY_MESSAGE, type BuildIdentityReply } from '../../../workers/index.ts';
import { updateWaiting } from '../serviceWorkerUpdate.ts';
import { renderWithProviders } from '../testing/renderWithProviders.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';

afterEach(cleanup);

const NEW_DIGEST = 'ab'.repeat(32);

function waitingWorker(reply: BuildIdentityReply): ServiceWorker {
  return {
    postMessage(message: unknown, transfer: Transferable[]) {
      if ((message as { type?: unknown }).type === BUILD_IDENTITY_MESSAGE) (transfer[0] as MessagePort).postMessage(reply);
    },
  } as unknown as ServiceWorker;
}

describe('UpdatePrompt', () => {
  it("shows the waiting version's build digest and updates only when asked", async () => {
    renderWithProviders(<UpdatePrompt />);
    expect(screen.queryByTestId('update-prompt')).toBeNull();
    const apply = vi.fn();
    act(() => updateWaiting(apply, waitingWorker({ ok: true, identity: { version: '0.2.0', buildDigest: NEW_DIGEST, listedFiles: 90, checkedFiles: 50, mismatchedFiles: [] } })));
    const prompt = await screen.findByTestId('update-prompt');
    expect(prompt).toHaveTextContent('A new version of Sealdrop is ready.');
    expect(await within(prompt).findByTestId('build-digest')).toHaveTextContent(NEW_DIGEST);
    expect(apply).not.toHaveBeenCalled();
    fireEvent.click(within(prompt).getByRole('button', { name: 'Reload to update' }));
    expect(apply).toHaveBeenCalledTimes(1);
  });
});
