// Records and checks an account's activity log (docs/api.md "Activity log"). Appending reads the
// account's last entry, chains the new one to it and inserts it; two processes appending at once
// for the same account collide on (user_id, seq) and the loser retries on the new last entry, so
// the chain stays one line. Recording never fails the action it records: a failure is logged.
// Retention removes an account's oldest entries and then records, in the chain, through which
// entry it removed them, so that a verifier can tell retention from a hand-made removal. After each
// committed entry a head checkpoint goes to the anchor file (anchor-file.ts), outside the database;
// the verifier compares the chain with the checkpoints it is given, which shows newest entries removed.
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories } from '../db/repositories/index.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { ActivityKind } from '../../contract/activity.ts';
import type { AnchorWriter } from './anchor-file.ts';
import type { AttestedHeads } from './attested-heads.ts';
import { checkpointToken } from './checkpoint.ts';
import {
  canonicalJson,
  chainKeysInOrder,
  entryHash,
  GENESIS_HASH,
  PRUNED_KIND,
  prunedThrough,
  startExplained,
  verifyChain,
  type ActivityKeys,
  type ChainCheck,
  type StoredEntry,
} from './chain.ts';

// Appends of one account are queued within a process, so only other processes can collide; a
// collision costs a retry (after a short random wait, so two processes do not collide again).
const APPEND_ATTEMPTS = 32;
const RETRY_JITTER_MS = 10;
const VERIFY_BATCH = 1000;

export interface ActivityFacts {
  folderId?: number | null;
  details?: Record<string, unknown>;
  /** The client's address; stored only as an HMAC under the server key. */
  ip?: string | null;
}

export interface ActivityLogDeps {
  repos: Repositories;
  /** The IP, chain and checkpoint HMAC keys (derived from the activity chain key: activityKeys). */
  keys: ActivityKeys;
  /** Where each committed entry's checkpoint is appended; null where nothing is recorded (the admin CLI). */
  anchor: AnchorWriter | null;
  now: () => number;
  log: FastifyBaseLogger;
}

export function createActivityLog(deps: ActivityLogDeps) {
  const { repos } = deps;
  const { ipKey, chainKey, checkpointKey } = deps.keys;
  const ipHash = (ip: string) => createHmac('sha256', ipKey).update(ip).digest('hex');

  const queues = new Map<number, Promise<unknown>>();

  /** Runs `work` after every earlier append of the same account in this process. */
  function queued<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(userId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    queues.set(userId, settled);
    void settled.then(() => {
      if (queues.get(userId) === settled) queues.delete(userId);
    });
    return next;
  }

  function append(userId: number, kind: ActivityKind, facts: ActivityFacts): Promise<StoredEntry> {
    return queued(userId, () => appendNow(userId, kind, facts));
  }

  async function appendNow(userId: number, kind: ActivityKind, facts: ActivityFacts): Promise<StoredEntry> {
    const fields = {
      userId,
      at: deps.now(),
      kind,
      folderId: facts.folderId ?? null,
      details: canonicalJson(facts.details ?? {}),
      ipHash: facts.ip ? ipHash(facts.ip) : null,
    };
    for (let attempt = 1; ; attempt++) {
      const last = await repos.activityLog.last(userId);
      const seq = (last?.seq ?? 0) + 1;
      const prevHash = last?.hash ?? GENESIS_HASH;
      const entry: StoredEntry = { ...fields, seq, prevHash, hash: entryHash(chainKey, prevHash, { ...fields, seq }) };
      try {
        await repos.activityLog.insert(entry);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= APPEND_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * RETRY_JITTER_MS));
        continue;
      }
      await anchorEntry(entry);
      return entry;
    }
  }

  /** Appends the entry's checkpoint to the anchor file; a failure is logged, the entry stays recorded. */
  async function anchorEntry(entry: StoredEntry): Promise<void> {
    if (!deps.anchor) return;
    try {
      await deps.anchor.append(checkpointToken(checkpointKey, entry));
    } catch (error) {
      deps.log.error({ err: error, userId: entry.userId, seq: entry.seq }, 'could not append an activity checkpoint to the anchor file');
    }
  }

  return {
    append,

    /** Appends, and logs instead of throwing: the recorded action has already happened. */
    async record(userId: number, kind: ActivityKind, facts: ActivityFacts = {}): Promise<void> {
      try {
        await append(userId, kind, facts);
      } catch (error) {
        deps.log.error({ err: error, kind, userId }, 'could not record an activity log entry');
      }
    },

    /** The signed checkpoint of the account's newest entry (checkpoint.ts), or null when it has none. */
    async checkpoint(userId: number): Promise<string | null> {
      const last = await repos.activityLog.last(userId);
      return last ? checkpointToken(checkpointKey, { userId, seq: last.seq, hash: last.hash }) : null;
    },

    /**
     * Checks the chain, and with `attested` (attested-heads.ts) also that every entry a checkpoint
     * names is still there with the hash it names: an entry missing after the head is a truncation.
     */
    async verify(userId: number, attested?: AttestedHeads): Promise<ChainCheck> {
      let afterSeq = 0;
      let count = 0;
      let firstSeq: number | null = null;
      let largestPrunedThrough: number | undefined;
      let previous: StoredEntry | undefined;
      const chainKeys = chainKeysInOrder(deps.keys);
      let keyIndex = 0;
      let earlierKeyEntries = 0;
      for (;;) {
        const batch = await repos.activityLog.chain(userId, afterSeq, VERIFY_BATCH);
        if (batch.length === 0) break;
        // Each batch is checked together with the last entry of the one before, so links across
        // batches are checked too (that entry is counted once, in its own batch).
        const check = verifyChain(chainKeys, previous === undefined ? batch : [previous, ...batch], keyIndex);
        if (!check.ok) return check;
        const recheckedEarlier = previous !== undefined && keyIndex < chainKeys.length - 1 ? 1 : 0;
        earlierKeyEntries += (check.earlierKeyEntries ?? 0) - recheckedEarlier;
        keyIndex = check.keyIndex ?? keyIndex;
        for (const entry of batch) {
          const hashes = attested?.bySeq.get(entry.seq);
          if (hashes && (hashes.size > 1 || !hashes.has(entry.hash))) return { ok: false, seq: entry.seq, reason: 'checkpoint-mismatch' };
          const through = prunedThrough(entry);
          if (through !== undefined) largestPrunedThrough = Math.max(largestPrunedThrough ?? 0, through);
        }
        firstSeq ??= batch[0]!.seq;
        count += batch.length;
        previous = batch[batch.length - 1];
        afterSeq = previous!.seq;
      }
      if (firstSeq !== null && !startExplained(firstSeq, largestPrunedThrough)) return { ok: false, seq: firstSeq - 1, reason: 'unrecorded-removal' };
      if (attested) {
        const headSeq = previous?.seq ?? 0;
        if (attested.newestSeq > headSeq) return { ok: false, seq: headSeq + 1, reason: 'truncated', missingThrough: attested.newestSeq };
        // Entries retention removed cannot be compared, but two signed hashes for one seq show a rewrite.
        let conflicting: number | undefined;
        for (const [seq, hashes] of attested.bySeq) if (hashes.size > 1 && (conflicting === undefined || seq < conflicting)) conflicting = seq;
        if (conflicting !== undefined) return { ok: false, seq: conflicting, reason: 'checkpoint-mismatch' };
      }
      return { ok: true, entries: count, firstSeq, earlierKeyEntries };
    },

    /**
     * Removes every account's entries older than `before`, except each account's newest entry (the
     * chain goes on from it), and records the removal in that account's chain. Safe on several
     * processes at once: a removal that finds nothing left to remove records nothing.
     */
    async prune(before: number): Promise<number> {
      let removed = 0;
      for (const { userId, throughSeq } of await repos.activityLog.oldEntriesByAccount(before)) {
        const last = await repos.activityLog.last(userId);
        const through = Math.min(throughSeq, (last?.seq ?? 0) - 1);
        if (through < 1) continue;
        const count = await repos.activityLog.deleteThrough(userId, through);
        if (count === 0) continue;
        removed += count;
        await append(userId, PRUNED_KIND, { details: { through_seq: through, older_than: new Date(before).toISOString() } });
      }
      return removed;
    },
  };
}

export type ActivityLog = ReturnType<typeof createActivityLog>;
