// @vitest-environment jsdom
// A progress report re-renders the progress panel and nothing around it: held in the files
// screen's state, each report re-rendered every row of the file table while the download ran.
import { act, cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../app/testing/renderWithProviders.tsx';
import { DownloadStatus } from './DownloadStatus.tsx';
import { createDownloadProgressStore } from './downloadProgressStore.ts';
import type { RunningDownload } from './useFileDownloads.tsx';

afterEach(cleanup);

const MiB = 1024 * 1024;

describe('DownloadStatus', () => {
  it('shows each report while the screen around it renders once', async () => {
    const running: RunningDownload = { label: 'contract.pdf', fileCount: 1, progress: createDownloadProgressStore() };
    let screenRenders = 0;
    function Screen() {
      screenRenders++;
      const [download] = useState<RunningDownload | null>(running);
      return <DownloadStatus running={download} onCancel={() => undefined} />;
    }
    renderWithProviders(<Screen />);
    expect(await screen.findByText('Preparing: unlocking the file keys and starting the download...')).toBeVisible();

    act(() => running.progress.set({ bytes: 4 * MiB, totalBytes: 16 * MiB, rateBytesPerSecond: 2 * MiB, secondsLeft: 6 }));
    expect(screen.getByTestId('download-figures')).toHaveTextContent('4.0 MB of 16.0 MB');
    expect(screen.getByRole('status')).toHaveTextContent('Downloading contract.pdf: 25%.');
    act(() => running.progress.set({ bytes: 8 * MiB, totalBytes: 16 * MiB, rateBytesPerSecond: 2 * MiB, secondsLeft: 4 }));
    expect(screen.getByTestId('download-figures')).toHaveTextContent('8.0 MB of 16.0 MB');
    expect(screen.getByRole('status')).toHaveTextContent('Downloading contract.pdf: 50%.');
    expect(screenRenders).toBe(1);
  });

  it('announces nothing and shows no panel without a download', () => {
    renderWithProviders(<DownloadStatus running={null} onCancel={() => undefined} />);
    expect(screen.queryByRole('region', { name: 'Download progress' })).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});
