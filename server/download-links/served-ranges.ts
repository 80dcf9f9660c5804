// The ciphertext a recipient has been sent of one file, as merged half-open byte ranges
// [start, end). A download counts once these cover the whole file (docs/api.md, "Download
// limits"), whatever mix of whole fetches, ranges and resumes got it there.
//
// The list is bounded: past MAX_SERVED_RANGES disjoint pieces the smallest are forgotten. That can
// only delay a count (the recipient fetches those bytes again), never make one early.

export type ServedRange = readonly [start: number, end: number];

export const MAX_SERVED_RANGES = 16;

/** `ranges` with `added` merged in, sorted, adjacent and overlapping pieces joined. */
export function addServedRange(ranges: readonly ServedRange[], added: ServedRange): ServedRange[] {
  if (added[1] <= added[0]) return [...ranges];
  const sorted = [...ranges, added].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  if (merged.length <= MAX_SERVED_RANGES) return merged;
  const kept = [...merged].sort((a, b) => b[1] - b[0] - (a[1] - a[0])).slice(0, MAX_SERVED_RANGES);
  return kept.sort((a, b) => a[0] - b[0]);
}

/** Whether the ranges cover every byte of a file of `size` bytes. */
export function coversWhole(ranges: readonly ServedRange[], size: number): boolean {
  return ranges.some(([start, end]) => start <= 0 && end >= size);
}

/** The stored form (JSON); anything unreadable is read as nothing sent. */
export function parseServedRanges(stored: string | null): ServedRange[] {
  if (stored === null) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (entry): entry is [number, number] =>
        Array.isArray(entry) && entry.length === 2 && Number.isSafeInteger(entry[0]) && Number.isSafeInteger(entry[1]) && entry[0] < entry[1],
    );
  } catch {
    return [];
  }
}

export function formatServedRanges(ranges: readonly ServedRange[]): string {
  return JSON.stringify(ranges);
}
