// The cumulative receipt (spec section 9): a plain-text file named
// Upload_Receipt_Cumulative_{timestamp}.txt with the time it was generated, a numbered list of every
// file the server confirmed during this page session (names with their folders, sizes in MB with
// two decimals) and the total count.

import { currentIntl, t } from '../../i18n/language.ts';
import { megabytes } from './fileSelection.ts';
import { receiptMessages } from './messages.ts';
import type { ReceiptEntry } from './uploadQueueSlice.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** Local time as YYYY-MM-DD_HH-MM-SS (safe in file names on every system). */
export function receiptTimestamp(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}_${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
}

export function receiptFileName(date: Date): string {
  return `Upload_Receipt_Cumulative_${receiptTimestamp(date)}.txt`;
}

function displayPath(entry: ReceiptEntry): string {
  return entry.relativePath === '.' ? entry.name : `${entry.relativePath}/${entry.name}`;
}

/** The generation time as Date's toLocaleString writes it, in the page's language. */
const GENERATED_AT: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };

export function receiptText(entries: readonly ReceiptEntry[], folderTitle: string | null, generatedAt: Date): string {
  const lines = [t(receiptMessages.heading)];
  if (folderTitle) lines.push(t(receiptMessages.folder, { title: folderTitle }));
  lines.push(t(receiptMessages.generatedOn, { date: currentIntl().formatDate(generatedAt, GENERATED_AT) }), '');
  entries.forEach((entry, index) => lines.push(`${index + 1}. ${displayPath(entry)} (${megabytes(entry.size)} MB)`));
  lines.push('', t(receiptMessages.total, { count: entries.length }), '');
  return lines.join('\n');
}

/** Saves the receipt through a temporary object URL. */
export function downloadReceipt(entries: readonly ReceiptEntry[], folderTitle: string | null, now = new Date()): void {
  const blob = new Blob([receiptText(entries, folderTitle, now)], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = receiptFileName(now);
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has handed the URL to the download; revoke once it is surely read.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
