// The page's one journal: the persisted queue in this origin's IndexedDB, keys wrapped by the
// shared crypto pool.

import { sharedCryptoPool } from '../../../app/cryptoPool.ts';
import { UploadQueueStore } from './uploadQueueStore.ts';
import { PersistedUploadJournal } from './uploadJournal.ts';

let journal: PersistedUploadJournal | undefined;

export function browserUploadJournal(): PersistedUploadJournal {
  journal ??= new PersistedUploadJournal({ store: new UploadQueueStore(), pool: sharedCryptoPool });
  return journal;
}
