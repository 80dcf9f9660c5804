// `npm run admin -- verify-activity <username> [--checkpoints <file>]...`: checks the account's
// chain, and compares it with every signed checkpoint of the account in the anchor file
// (ACTIVITY_ANCHOR_FILE) and in the files given (exports, saved notification e-mails or webhook
// bodies), which shows the newest entries removed. A line of the anchor file that is not a
// checkpoint signed by the chain key is reported too: the anchor file was tampered with.
import { access } from 'node:fs/promises';
import { pino } from 'pino';
import { UserAdminError } from '../auth/user-admin.ts';
import type { Config } from '../config.ts';
import type { Repositories } from '../db/repositories/index.ts';
import { createActivityLog } from './activity-log.ts';
import { attestedHeads, type BadCheckpointLine, type CheckpointSource } from './attested-heads.ts';
import { activityKeys, legacyChainKey, type BrokenReason } from './chain.ts';
import { loadActivityChainKey } from './chain-key.ts';
import { loadWebhookSigningKey } from '../webhooks/signing-secret.ts';
import { codedError } from '../../contract/coded-error.ts';

export class ActivityChainBrokenError extends codedError('ACTIVITY_CHAIN_BROKEN') {}

const BROKEN_REASONS: Record<Exclude<BrokenReason, 'truncated'>, string> = {
  'hash-mismatch': 'its content does not match its hash (edited)',
  'broken-link': 'it does not link to the entry before it (edited, inserted or reordered)',
  gap: 'it is missing (removed)',
  'unrecorded-removal': 'it and the entries before it are missing, and retention did not remove them (removed)',
  'checkpoint-mismatch': 'a signed checkpoint gives another hash for it (the log was cut there and written anew)',
};

const BAD_LINES_SHOWN = 20;

function badLineText(bad: BadCheckpointLine): string {
  const why = bad.reason === 'malformed' ? 'is not a checkpoint' : 'is a checkpoint not signed by the activity chain key';
  return `${bad.file} line ${bad.line} ${why} (tampered).`;
}

function missingText(from: number, through: number): string {
  return from === through ? `entry ${from} is missing` : `entries ${from} to ${through} are missing`;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

export async function verifyActivityCommand(repos: Repositories, config: Config, username: string, checkpointFiles: readonly string[]): Promise<string> {
  const user = await repos.users.findByUsername(username);
  if (!user) throw new UserAdminError('UNKNOWN_USER', `No user named "${username}".`);
  // The same ACTIVITY_CHAIN_KEY or DATA_DIR key file as the server's (and its webhook key, for entries from before the chain key).
  const chainKey = await loadActivityChainKey({ configured: config.activity.chainKey, dataDir: config.dataDir });
  const legacy = legacyChainKey(await loadWebhookSigningKey({ configured: config.webhooks.signingKey, dataDir: config.dataDir }));
  const keys = activityKeys(chainKey, legacy);
  const anchorFile = config.activity.anchorFile;
  const anchorThere = await exists(anchorFile);
  const sources: CheckpointSource[] = [
    ...(anchorThere ? [{ file: anchorFile, anchor: true }] : []),
    ...checkpointFiles.map((file) => ({ file, anchor: false })),
  ];
  const heads = await attestedHeads(keys.checkpointKey, user.id, sources);
  const activity = createActivityLog({ repos, keys, anchor: null, now: Date.now, log: pino({ level: 'silent' }) });
  const check = await activity.verify(user.id, heads);

  const problems: string[] = [];
  if (!check.ok) {
    problems.push(
      check.reason === 'truncated'
        ? `The activity log of "${user.username}" is truncated: ${missingText(check.seq, check.missingThrough ?? check.seq)}, ` +
            `and a signed checkpoint attests that the log had reached entry ${check.missingThrough ?? check.seq} (the newest entries were removed).`
        : `The activity log of "${user.username}" is broken at entry ${check.seq}: ${BROKEN_REASONS[check.reason]}.`,
    );
  }
  for (const bad of heads.bad.slice(0, BAD_LINES_SHOWN)) problems.push(badLineText(bad));
  if (heads.bad.length > BAD_LINES_SHOWN) problems.push(`... and ${heads.bad.length - BAD_LINES_SHOWN} more such lines.`);
  if (problems.length > 0 || !check.ok) throw new ActivityChainBrokenError(problems.join('\n'));

  const notes: string[] = [];
  if (heads.count > 0) {
    notes.push(`${heads.count} signed checkpoint${heads.count === 1 ? '' : 's'} match (the newest attests to entry ${heads.newestSeq}).`);
  } else if (check.entries > 0) {
    notes.push('No signed checkpoint of this account was found, so removal of its newest entries cannot be ruled out.');
  }
  if (!anchorThere) notes.push(`There is no anchor file at ${anchorFile}.`);
  if ((check.earlierKeyEntries ?? 0) > 0) {
    notes.push(`${check.earlierKeyEntries} entries from before the activity chain key verified under the key derived from the webhook signing key.`);
  }
  const tail = notes.length > 0 ? ` ${notes.join(' ')}` : '';
  if (check.entries === 0) return `The activity log of "${user.username}" is empty.${tail}`;
  const from = check.firstSeq === 1 ? '' : ` (entries before ${check.firstSeq} were removed by retention)`;
  return `The activity log of "${user.username}" is intact: ${check.entries} entries verified${from}.${tail}`;
}
