// Opens each exported file's key with the backup's private key: directly for a file sealed to the
// account key, and for a team folder's file through the epoch keys its envelopes give this key
// (docs/format.md, "Exports"). The team's signed member list is checked as a member's browser
// checks it before any envelope is opened; when it is refused, or this key is not a member, or an
// epoch's envelope does not open, the files that need it fail with TEAM_KEY_UNAVAILABLE and the
// reason, and the others are still recovered.
import type { KeyObject } from 'node:crypto';
import {
  keyHash,
  openEpochKeys,
  parseManifest as parseTeamManifest,
  publicKeySpkiOf,
  strictBase64,
  TeamManifestError,
  unwrapFileKey,
  type OpenedEpochKeys,
} from '../crypto/index.ts';
import { FileRecoveryError } from './errors.ts';
import type { ExportedFile, Manifest } from './manifest.ts';

/** The file key (the caller zeroes it), or FileRecoveryError / OfflineCryptoError. */
export type ExportKeyOpener = (file: ExportedFile) => Buffer;

export interface ExportKeys {
  open: ExportKeyOpener;
  /** One line for the report about the team's keys; null for a personal folder's export. */
  teamSummary: string | null;
}

type ExportedTeam = NonNullable<Manifest['team']>;

/** The member of the last signed version whose key is this one (the chain check then confirms it). */
function memberWithKey(team: ExportedTeam, ownKeyHash: string): { userId: number; username: string; role: string } | undefined {
  try {
    const last = team.section.manifests[team.section.manifests.length - 1]!;
    const head = parseTeamManifest(strictBase64(last.manifest, 'manifest'));
    const member = head.members.find((entry) => entry.key === ownKeyHash);
    return member && { userId: member.user_id, username: member.username, role: member.role };
  } catch {
    return undefined; // openEpochKeys below names what is wrong with the list
  }
}

function openTeamKeys(team: ExportedTeam, privateKey: KeyObject): { opened: OpenedEpochKeys; summary: string } | { refusal: string } {
  const ownKeyHash = keyHash(publicKeySpkiOf(privateKey));
  const member = memberWithKey(team, ownKeyHash);
  if (!member) return { refusal: "this backup's key is not a member of the team folder in the export's signed member list" };
  const envelopes = team.section.envelopes.filter((item) => item.user_id === member.userId);
  try {
    const opened = openEpochKeys(team.folderId, team.section.manifests, envelopes, { userId: member.userId, privateKey });
    const epochs = [...opened.epochKeys.keys()].sort((a, b) => a - b);
    const summary = `Team folder: this key is ${member.username} (${member.role}); key epochs it opens: ${epochs.length > 0 ? epochs.join(', ') : 'none'} of ${opened.chain.head.current_epoch}.`;
    return { opened, summary };
  } catch (error) {
    if (error instanceof TeamManifestError) return { refusal: `the export's signed member list is refused (${error.reason}): ${error.message}` };
    throw error;
  }
}

export function exportKeys(privateKey: KeyObject, manifest: Manifest): ExportKeys {
  const byAccountKey = (file: ExportedFile) => unwrapFileKey(privateKey, file.encryptedKey);
  if (manifest.team === null) return { open: byAccountKey, teamSummary: null };
  const team = openTeamKeys(manifest.team, privateKey);
  if ('refusal' in team) {
    return {
      open: (file) => {
        if (file.keyEpoch === null) return byAccountKey(file);
        throw new FileRecoveryError('TEAM_KEY_UNAVAILABLE', `sealed to the team folder's key epoch ${file.keyEpoch}, but ${team.refusal}`);
      },
      teamSummary: `Team folder: ${team.refusal}; only files sealed to the account key can be recovered.`,
    };
  }
  const unopened = new Map(team.opened.unopened.map((item) => [item.epoch, item.error]));
  return {
    open: (file) => {
      if (file.keyEpoch === null) return byAccountKey(file);
      const epochKey = team.opened.epochKeys.get(file.keyEpoch);
      if (epochKey) return unwrapFileKey(epochKey, file.encryptedKey);
      const why = unopened.has(file.keyEpoch) ? `its envelope for this key does not open (${unopened.get(file.keyEpoch)!.message})` : 'this key was not a member then, or was removed since';
      throw new FileRecoveryError('TEAM_KEY_UNAVAILABLE', `sealed to the team folder's key epoch ${file.keyEpoch}, which this backup's key cannot open: ${why}`);
    },
    teamSummary: team.summary,
  };
}
