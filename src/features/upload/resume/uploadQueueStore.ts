// The persisted upload queue in IndexedDB (idb-keyval): one record per unfinished large file under
// its entry id, plus the origin's storage key (a non-extractable CryptoKey object: IndexedDB keeps
// it by structured clone, and nothing can read its bytes). Plain storage, no decisions: those are
// in uploadJournal.ts.

import { createStore, del, entries, get, set, setMany, update, type UseStore } from 'idb-keyval';
import { QUEUE_ENTRY_VERSION, type DeliveredMark, type QueueEntry } from './queueEntry.ts';

const DB_NAME = 'sealdrop-upload-queue';
const STORE_NAME = 'entries';
const STORAGE_KEY_ID = 'storage-key';
const ENTRY_PREFIX = 'entry:';
const DELIVERED_PREFIX = 'delivered:';

export class UploadQueueStore {
  private store: UseStore | undefined;

  /** The store is opened on first use (so that merely importing this module touches no database). */
  private db(): UseStore {
    this.store ??= createStore(DB_NAME, STORE_NAME);
    return this.store;
  }

  async storageKey(): Promise<CryptoKey | undefined> {
    return get<CryptoKey>(STORAGE_KEY_ID, this.db());
  }

  /** Keeps `candidate` unless another tab stored a key first; returns the key that is stored. */
  async keepStorageKey(candidate: CryptoKey): Promise<CryptoKey> {
    await update<CryptoKey>(STORAGE_KEY_ID, (existing) => existing ?? candidate, this.db());
    const kept = await this.storageKey();
    if (!kept) throw new Error('the storage key was not kept in IndexedDB');
    return kept;
  }

  get(id: string): Promise<QueueEntry | undefined> {
    return get<QueueEntry>(ENTRY_PREFIX + id, this.db());
  }

  put(entry: QueueEntry): Promise<void> {
    return set(ENTRY_PREFIX + entry.id, entry, this.db());
  }

  /**
   * Changes an existing entry (a missing one stays missing: it was completed or discarded). Not one
   * transaction: the journal serialises the writes of one entry itself.
   */
  async change(id: string, change: (entry: QueueEntry) => QueueEntry): Promise<void> {
    const entry = await this.get(id);
    if (entry) await this.put(change(entry));
  }

  delete(id: string): Promise<void> {
    return del(ENTRY_PREFIX + id, this.db());
  }

  /** Every entry of this format version (others are left for a later version to read or purge). */
  list(): Promise<QueueEntry[]> {
    return this.listUnder<QueueEntry>(ENTRY_PREFIX);
  }

  /** All marks in one transaction: a batch of 100 stored files is one IndexedDB write, not 100. */
  putDelivered(marks: readonly DeliveredMark[]): Promise<void> {
    return setMany(
      marks.map((mark) => [DELIVERED_PREFIX + mark.id, mark]),
      this.db(),
    );
  }

  deleteDelivered(id: string): Promise<void> {
    return del(DELIVERED_PREFIX + id, this.db());
  }

  listDelivered(): Promise<DeliveredMark[]> {
    return this.listUnder<DeliveredMark>(DELIVERED_PREFIX);
  }

  private async listUnder<T extends { version: number }>(prefix: string): Promise<T[]> {
    const all = await entries<IDBValidKey, T | undefined>(this.db());
    return all.filter(([key, value]) => typeof key === 'string' && key.startsWith(prefix) && value?.version === QUEUE_ENTRY_VERSION).map(([, value]) => value!);
  }
}
