// The page's one journal: the persisted queue in this origin's IndexedDB, keys wrapped by the
// app's crypto pool, and the handles of files picked in this tab kept beside their entries.

import type { CryptoPoolSource } from '../../../app/cryptoPool.ts';
import { pickedSources } from './fileSource.ts';
import { UploadQueueStore } from './uploadQueueStore.ts';
import { PersistedUploadJournal } from './uploadJournal.ts';

/** One journal per pool (the app has one): its writes of an entry stay in order across controllers. */
const journals = new WeakMap<CryptoPoolSource, PersistedUploadJournal>();

export function browserUploadJournal(cryptoPool: CryptoPoolSource): PersistedUploadJournal {
  let journal = journals.get(cryptoPool);
  if (!journal) {
    journal = new PersistedUploadJournal({ store: new UploadQueueStore(), pool: cryptoPool, sourceOf: (file) => pickedSources.sourceOf(file) });
    journals.set(cryptoPool, journal);
  }
  return journal;
}
