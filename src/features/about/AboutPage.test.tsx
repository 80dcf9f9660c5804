// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAppAt, renderWithProviders, signedOutState } from '../../app/testing/renderWithProviders.tsx';
import { BUILD_IDENTITY_MESSAGE, type BuildIdentityReply } from '../../../workers/index.ts';
import { requestBuildIdentity } from '../../app/buildIdentity.ts';
import { AboutPage } from './AboutPage.tsx';

afterEach(cleanup);

const DIGEST = 'c0ffee'.padEnd(64, '0');

/** A service worker that answers the build-identity request on the port it is given, as workers/sw.ts does. */
function fakeWorker(reply: BuildIdentityReply | null): ServiceWorker {
  return {
    postMessage(message: unknown, transfer: Transferable[]) {
      const [port] = transfer as MessagePort[];
      if ((message as { type?: unknown }).type === BUILD_IDENTITY_MESSAGE && reply) port!.postMessage(reply);
    },
  } as unknown as ServiceWorker;
}

describe('About page', () => {
  it('shows the version and the build digest the controlling service worker reports', async () => {
    const worker = fakeWorker({ ok: true, identity: { version: '0.1.0', buildDigest: DIGEST, listedFiles: 101, checkedFiles: 55, mismatchedFiles: [] } });
    renderWithProviders(<AboutPage worker={worker} />);
    expect(screen.getByRole('heading', { name: 'About Sealdrop' })).toBeVisible();
    expect(await screen.findByTestId('build-digest')).toHaveTextContent(DIGEST);
    expect(screen.getByText('Version: 0.1.0')).toBeVisible();
    expect(screen.getByText(/^Checked just now: 55 of the 55 cached files match the list \(101 files listed/)).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns when cached files differ from the build list', async () => {
    const worker = fakeWorker({ ok: true, identity: { version: '0.1.0', buildDigest: DIGEST, listedFiles: 101, checkedFiles: 55, mismatchedFiles: ['assets/index-abc.js'] } });
    renderWithProviders(<AboutPage worker={worker} />);
    expect(await screen.findByRole('alert')).toHaveTextContent("1 cached file differs from the build's list of digests: assets/index-abc.js.");
  });

  it('says the digest is not available without a service worker, or when the worker has no list', async () => {
    renderWithProviders(<AboutPage worker={null} />);
    expect(screen.getByText(/Not available: this page does not run from an installed copy of the app/)).toBeVisible();
    cleanup();
    renderWithProviders(<AboutPage worker={fakeWorker({ ok: false, code: 'NO_BUILD_DIGESTS' })} />);
    expect(await screen.findByText(/could not describe its build \(NO_BUILD_DIGESTS\)/)).toBeVisible();
  });

  it('is a public route, linked from every screen\'s footer', async () => {
    renderAppAt('/login', { preloadedState: signedOutState() });
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'About Sealdrop and the code you are running' }).getAttribute('href')).toBe('/about');
    cleanup();
    renderAppAt('/about', { preloadedState: signedOutState() });
    expect(await screen.findByRole('heading', { name: 'About Sealdrop' })).toBeVisible();
  });
});

describe('requestBuildIdentity', () => {
  it('gives up with a coded error when the worker never answers', async () => {
    await expect(requestBuildIdentity(fakeWorker(null), 30)).rejects.toMatchObject({ code: 'TIMED_OUT' });
  });

  it('refuses a malformed answer', async () => {
    const worker = fakeWorker({ ok: true, identity: { version: '1', buildDigest: 'not hex', listedFiles: 1, checkedFiles: 1, mismatchedFiles: [] } });
    await expect(requestBuildIdentity(worker, 1000)).rejects.toMatchObject({ code: 'MALFORMED_REPLY' });
  });
});
