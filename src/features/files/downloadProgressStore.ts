/**
 * The running download's progress, kept outside React state. It changes several times a second;
 * held in the files screen's state it re-rendered the whole screen, every row of the file table
 * included, on each report, on the same cores that fetch, decrypt and write the download. Only the
 * progress panel and the screen's live region read it (DownloadStatus.tsx).
 */
import { useSyncExternalStore } from 'react';
import type { DownloadProgress } from '../downloads/index.ts';

export interface DownloadProgressStore {
  /** null until the first report. */
  get(): DownloadProgress | null;
  set(progress: DownloadProgress): void;
  subscribe(listener: () => void): () => void;
}

export function createDownloadProgressStore(): DownloadProgressStore {
  let current: DownloadProgress | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(progress) {
      current = progress;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

const NO_STORE: DownloadProgressStore = createDownloadProgressStore();

/** The store's progress, re-rendering only the calling component on each report. */
export function useDownloadProgress(store: DownloadProgressStore | null): DownloadProgress | null {
  const from = store ?? NO_STORE;
  return useSyncExternalStore(from.subscribe, from.get, from.get);
}
