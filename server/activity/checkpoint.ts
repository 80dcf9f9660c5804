// A head checkpoint: "account U's chain had reached entry S, whose hash was H", MACed with the
// checkpoint key (chain.ts: activityKeys). Checkpoints leave the database (the anchor file, every
// export, webhook payloads, notification e-mails), so removing an account's newest entries is seen:
// a checkpoint attests to an entry the database no longer has, or to another hash at that seq.
// One compact token, `ac1:<user id>:<seq>:<hash>:<mac>`, is used everywhere, so the verifier can
// pick checkpoints out of any of those texts.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Checkpoint {
  userId: number;
  seq: number;
  hash: string;
}

const PREFIX = 'ac1';
const TOKEN = /^ac1:(\d{1,15}):(\d{1,15}):([0-9a-f]{64}):([0-9a-f]{64})$/;
/** Finds tokens inside other text (an export, a saved e-mail or webhook body). */
export const CHECKPOINT_IN_TEXT = /ac1:\d{1,15}:\d{1,15}:[0-9a-f]{64}:[0-9a-f]{64}/g;

function signedPart(checkpoint: Checkpoint): string {
  return `${PREFIX}:${checkpoint.userId}:${checkpoint.seq}:${checkpoint.hash}`;
}

function mac(checkpointKey: Buffer, checkpoint: Checkpoint): string {
  return createHmac('sha256', checkpointKey).update(signedPart(checkpoint)).digest('hex');
}

export function checkpointToken(checkpointKey: Buffer, checkpoint: Checkpoint): string {
  return `${signedPart(checkpoint)}:${mac(checkpointKey, checkpoint)}`;
}

export type ParsedCheckpoint = { ok: true; checkpoint: Checkpoint } | { ok: false; reason: 'malformed' | 'bad-signature' };

/** A token's checkpoint when it is well formed and its MAC is the checkpoint key's. */
export function parseCheckpoint(checkpointKey: Buffer, token: string): ParsedCheckpoint {
  const match = TOKEN.exec(token.trim());
  if (!match) return { ok: false, reason: 'malformed' };
  const checkpoint = { userId: Number(match[1]), seq: Number(match[2]), hash: match[3]! };
  const expected = Buffer.from(mac(checkpointKey, checkpoint), 'hex');
  const given = Buffer.from(match[4]!, 'hex');
  if (!timingSafeEqual(expected, given)) return { ok: false, reason: 'bad-signature' };
  return { ok: true, checkpoint };
}
