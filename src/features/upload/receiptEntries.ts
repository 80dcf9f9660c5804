// Files the server confirmed during a run, turned into lines of the cumulative receipt.
import type { ReceiptEntry } from './uploadQueueSlice.ts';

export interface StoredFile extends ReceiptEntry {
  id: string;
}

export function receiptEntriesOf(stored: readonly StoredFile[]): ReceiptEntry[] {
  return stored.map(({ name, relativePath, size, uploadedAt }) => ({ name, relativePath, size, uploadedAt }));
}
