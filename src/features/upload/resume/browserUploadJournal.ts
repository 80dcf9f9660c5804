// The page's one journal: the persisted queue in this origin's IndexedDB, keys wrapped by the
// shared crypto pool, and the handles of files picked in this tab kept beside their entries.

import { sharedCryptoPool } from '../../../app/cryptoPool.ts';
import { pickedSources } from './fileSource.ts';
import { UploadQueueStore } from './uploadQueueStore.ts';
import { PersistedUploadJournal } from './uploadJournal.ts';

let journal: PersistedUploadJournal | undefined;

export function browserUploadJournal(): PersistedUploadJournal {
  journal ??= new PersistedUploadJournal({
    store: new UploadQueueStore(),
    pool: sharedCryptoPool,
    sourceOf: (file) => pickedSources.sourceOf(file),
  });
  return journal;
}
