// The single byte range of an HTTP Range header (RFC 9110 section 14), resolved against a blob's
// size. Downloads are resumed with one range (`bytes=a-`), so that is what we serve; a header we
// do not understand, or one asking for several ranges, is ignored and the whole blob is sent, as
// the RFC allows.

export type RangeRequest =
  /** No usable Range header: send everything with 200. */
  | { kind: 'full' }
  /** Send bytes start..end (inclusive) with 206. */
  | { kind: 'partial'; start: number; end: number }
  /** Syntactically valid but outside the blob: 416. */
  | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function resolveRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'full' };
  const match = SINGLE_RANGE.exec(header.trim().replace(/\s+/g, ''));
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };

  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (!Number.isSafeInteger(length)) return { kind: 'full' };
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }

  const start = Number(first);
  const requestedEnd = last === '' ? Number.POSITIVE_INFINITY : Number(last);
  if (!Number.isSafeInteger(start) || (last !== '' && !Number.isSafeInteger(requestedEnd))) return { kind: 'full' };
  // "bytes=5-2" is invalid syntax, which the RFC says to ignore.
  if (requestedEnd < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(requestedEnd, size - 1) };
}
