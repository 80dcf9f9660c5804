// What this browser saw of a team folder's signed chain (docs/team-folders.md, rule 6): the hash of
// version 1, the highest version and that version's hash, per account and folder, in localStorage so that a server
// which later answers with a shorter or forked chain is refused even after a reload. Only hashes
// and numbers: nothing here is secret. A browser with no storage (private mode refusing writes)
// simply remembers nothing, which weakens rule 6 to "within this page" but refuses nothing honest.
import type { SeenChain } from './teamPool.ts';

const PREFIX = 'sealdrop.team-seen';

function storageKey(userId: number, folderId: number): string {
  return `${PREFIX}.${userId}.${folderId}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

type SeenHead = { firstHash: string; seq: number; headHash?: string | undefined };

const SHA256_HEX = /^[0-9a-f]{64}$/;

function isSeen(value: unknown): value is SeenHead {
  if (typeof value !== 'object' || value === null) return false;
  const { firstHash, seq, headHash } = value as Record<string, unknown>;
  return (
    typeof firstHash === 'string' && SHA256_HEX.test(firstHash) && typeof seq === 'number' && Number.isInteger(seq) && seq >= 1 &&
    (headHash === undefined || (typeof headHash === 'string' && SHA256_HEX.test(headHash)))
  );
}

export function readSeenChain(userId: number, folderId: number): SeenChain {
  const text = storage()?.getItem(storageKey(userId, folderId));
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isSeen(parsed) ? { firstHash: parsed.firstHash, seq: parsed.seq, headHash: parsed.headHash } : null;
  } catch {
    return null;
  }
}

/**
 * After the worker accepted a chain: its head, never lower than what was seen before. The head's
 * hash lets the next check refuse a different version under the same number (a removed manager and
 * the server writing another history on the same version 1).
 */
export function rememberSeenChain(userId: number, folderId: number, head: { firstHash: string; seq: number; headHash: string }): void {
  const before = readSeenChain(userId, folderId);
  if (before !== null && before.firstHash === head.firstHash && before.seq >= head.seq) return;
  try {
    storage()?.setItem(storageKey(userId, folderId), JSON.stringify({ firstHash: head.firstHash, seq: head.seq, headHash: head.headHash }));
  } catch {
    // A full or refused storage only costs remembering (see above).
  }
}
