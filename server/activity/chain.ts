// The hash chain of an account's activity log. An entry's hash is HMAC-SHA256, under a key derived
// from the activity chain key (chain-key.ts), over the previous entry's hash and the entry's own fields in a fixed order
// (canonical JSON): changing any stored field, deleting an entry or swapping two breaks the chain
// at that entry, and someone who can write the database but does not hold the chain key cannot
// compute a chain that verifies again (an unkeyed hash could simply be recomputed).
import { createHmac } from 'node:crypto';
import type { ActivityKind } from '../../contract/activity.ts';

export const GENESIS_HASH = '0'.repeat(64);

/** The entry retention writes after removing an account's oldest entries (details: {through_seq}). */
export const PRUNED_KIND = 'activity.pruned' satisfies ActivityKind;

export interface ChainedFields {
  userId: number;
  seq: number;
  at: number;
  kind: string;
  folderId: number | null;
  /** Canonical JSON text, exactly as stored. */
  details: string;
  ipHash: string | null;
}

/** The keys of the log, all derived from the activity chain key (chain-key.ts). */
export interface ActivityKeys {
  /** HMAC key of client addresses: comparable, not reversible. */
  ipKey: Buffer;
  /** HMAC key of the chain. */
  chainKey: Buffer;
  /** HMAC key of head checkpoints (checkpoint.ts), kept apart from the chain's so neither can stand in for the other. */
  checkpointKey: Buffer;
  /**
   * The chain key of entries written before the log had a key of its own, derived from the webhook
   * signing key (legacyChainKey); null: no such entries are accepted.
   */
  legacyChainKey: Buffer | null;
}

export function activityKeys(activityChainKey: Buffer, legacy: Buffer | null = null): ActivityKeys {
  const derive = (label: string) => createHmac('sha256', activityChainKey).update(label).digest();
  return {
    ipKey: derive('sealdrop/activity-ip/v2'),
    chainKey: derive('sealdrop/activity-chain/v2'),
    checkpointKey: derive('sealdrop/activity-checkpoint/v1'),
    legacyChainKey: legacy,
  };
}

/**
 * The chain key earlier versions derived from the webhook signing key. Entries they wrote still
 * verify under it, but only before an account's first entry under the chain key of its own
 * (verifyChain): whoever holds the webhook key can forge only the part of a chain that predates it.
 */
export function legacyChainKey(webhookSigningKey: Buffer): Buffer {
  return createHmac('sha256', webhookSigningKey).update('sealdrop/activity-chain/v1').digest();
}

/** The chain keys in the order they were used: [legacy, current], or [current]. */
export function chainKeysInOrder(keys: ActivityKeys): Buffer[] {
  return keys.legacyChainKey === null ? [keys.chainKey] : [keys.legacyChainKey, keys.chainKey];
}

export function entryHash(chainKey: Buffer, prevHash: string, entry: ChainedFields): string {
  const canonical = JSON.stringify([entry.userId, entry.seq, entry.at, entry.kind, entry.folderId, entry.details, entry.ipHash]);
  return createHmac('sha256', chainKey).update(prevHash).update('\n').update(canonical).digest('hex');
}

/** JSON with object keys sorted at every level, so the same facts always give the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

export interface StoredEntry extends ChainedFields {
  prevHash: string;
  hash: string;
}

/**
 * Why a chain does not verify. `truncated` and `checkpoint-mismatch` come from comparing it with
 * signed head checkpoints (checkpoint.ts): entries a checkpoint attests to are missing after the
 * head, or the entry at a checkpoint's seq has another hash (the chain was cut and written anew).
 */
export type BrokenReason = 'hash-mismatch' | 'broken-link' | 'gap' | 'unrecorded-removal' | 'truncated' | 'checkpoint-mismatch';

export type ChainCheck =
  | {
      ok: true;
      entries: number;
      firstSeq: number | null;
      /** Index in the key order (chainKeysInOrder) of the key the last entry verified under. */
      keyIndex?: number;
      /** Entries that verified under an earlier key than the current one (written before an upgrade). */
      earlierKeyEntries?: number;
    }
  | { ok: false; seq: number; reason: BrokenReason; /** truncated: the last missing seq a checkpoint attests to. */ missingThrough?: number };

/** The seq a retention entry says it removed entries through, or undefined for any other entry. */
export function prunedThrough(entry: StoredEntry): number | undefined {
  if (entry.kind !== PRUNED_KIND) return undefined;
  const through = (JSON.parse(entry.details) as { through_seq?: unknown }).through_seq;
  return typeof through === 'number' && Number.isSafeInteger(through) ? through : undefined;
}

/**
 * Checks consecutive entries of one account in seq order: each links to its predecessor and
 * carries its own hash, under `chainKeys[fromKey]` or a later key; once an entry verifies under a
 * later key, no later entry may use an earlier one. The first entry may follow removed ones;
 * whether retention removed them is checked over the whole chain (`startExplained`).
 */
export function verifyChain(chainKeys: readonly Buffer[], entries: readonly StoredEntry[], fromKey = 0): ChainCheck {
  let previous: StoredEntry | null = null;
  let keyIndex = fromKey;
  let earlierKeyEntries = 0;
  for (const entry of entries) {
    if (entry.seq === 1 && entry.prevHash !== GENESIS_HASH) return { ok: false, seq: entry.seq, reason: 'broken-link' };
    if (previous !== null) {
      if (entry.seq !== previous.seq + 1) return { ok: false, seq: previous.seq + 1, reason: 'gap' };
      if (entry.prevHash !== previous.hash) return { ok: false, seq: entry.seq, reason: 'broken-link' };
    }
    let index = keyIndex;
    while (index < chainKeys.length && entryHash(chainKeys[index]!, entry.prevHash, entry) !== entry.hash) index += 1;
    if (index === chainKeys.length) return { ok: false, seq: entry.seq, reason: 'hash-mismatch' };
    keyIndex = index;
    if (index < chainKeys.length - 1) earlierKeyEntries += 1;
    previous = entry;
  }
  return { ok: true, entries: entries.length, firstSeq: entries[0]?.seq ?? null, keyIndex, earlierKeyEntries };
}

/**
 * A chain that no longer starts at entry 1 is explained only by a retention entry, itself in the
 * chain, saying it removed exactly the entries before the first one kept: removing the oldest
 * entries by hand cannot pass as retention.
 */
export function startExplained(firstSeq: number, largestPrunedThrough: number | undefined): boolean {
  return firstSeq === 1 || largestPrunedThrough === firstSeq - 1;
}
