// One run of `npm run fetch -- --team <server> --user <name> --folder <id> (--list | <dir>)`: a
// member signs in, reads the folder's signed member list and checks the whole chain as the app
// does (server/crypto/team-manifest.ts: links, signers, signatures, epochs, this account a member
// with its own key), opens its envelopes (each epoch key must hash to the key the verified list
// names), then lists the files or writes each decrypted through recover's decrypt-to-disk (every
// record's tag, the size and the SHA-256 the upload recorded). A file that fails is named and
// skipped; the others are still fetched.
import { mkdir, stat } from 'node:fs/promises';
import type { KeyObject } from 'node:crypto';
import { fileListResponse, type FileRecord } from '../../contract/files.ts';
import { teamAnswer, type TeamAnswer } from '../../contract/team-folders.ts';
import { openEpochKeys, strictBase64, TeamManifestError, unwrapFileKey, type OpenedEpochKeys, type VerifiedChain } from '../../server/crypto/index.ts';
import { errnoCode, FileRecoveryError, printablePath, safeSegments } from '../../server/recovery/index.ts';
import { ApiSession } from '../shared/api-session.ts';
import { ApiRequestError, CliUsageError, EXIT, TeamUnusableError } from '../shared/errors.ts';
import { Prompts } from '../shared/prompts.ts';
import { withRetries } from '../shared/retry.ts';
import { fetchFiles, type FileToFetch } from './fetch-files.ts';
import { signIn } from './team-sign-in.ts';

export interface TeamFetchInvocation {
  origin: string;
  username: string;
  folderId: number;
  /** null: --list. */
  outputDir: string | null;
  password?: string;
  force: boolean;
}

function openTeam(folderId: number, team: TeamAnswer, viewer: { userId: number; privateKey: KeyObject }): OpenedEpochKeys {
  if (team.manifests.length === 0) throw new TeamUnusableError('NOT_A_TEAM_FOLDER', `folder ${folderId} is not shared with a team`);
  let opened: OpenedEpochKeys;
  try {
    opened = openEpochKeys(folderId, team.manifests, team.my_envelopes, viewer);
  } catch (error) {
    if (error instanceof TeamManifestError) throw new TeamUnusableError('TEAM_MANIFEST_INVALID', `the folder's member list is refused (${error.reason}): ${error.message}. Nothing was fetched.`);
    throw error;
  }
  for (const { epoch, error } of opened.unopened) console.error(`Warning: the key of epoch ${epoch} does not open (${error.message}); files sealed to it are skipped.`);
  return opened;
}

/** Member rows the server lists that the verified list does not (a row the server added): named, never trusted. */
function warnAboutUnlisted(team: TeamAnswer, chain: VerifiedChain): void {
  const listed = new Set(chain.head.members.map((member) => member.user_id));
  for (const member of team.members) {
    if (!listed.has(member.user_id)) console.error(`Warning: the server lists ${printablePath(member.username)} as a member, but the signed member list does not.`);
  }
}

function fileKeyOf(file: FileRecord, opened: OpenedEpochKeys, privateKey: KeyObject): Buffer {
  if (file.key_epoch === null) return unwrapFileKey(privateKey, file.encrypted_key);
  const epochKey = opened.epochKeys.get(file.key_epoch);
  if (!epochKey) throw new FileRecoveryError('TEAM_KEY_UNAVAILABLE', `this account holds no key of epoch ${file.key_epoch} (it was not a member then)`);
  return unwrapFileKey(epochKey, file.encrypted_key);
}

const pathOf = (file: FileRecord): string => (file.relative_path === '.' ? file.original_filename : `${file.relative_path}/${file.original_filename}`);

async function checkOutputDir(outputDir: string): Promise<void> {
  try {
    if (!(await stat(outputDir)).isDirectory()) throw new CliUsageError(`${outputDir} exists and is not a directory.`);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error instanceof CliUsageError ? error : new CliUsageError(`Cannot use ${outputDir} (${errnoCode(error) ?? 'error'}).`);
  }
}

function notFound(error: unknown): never {
  if (error instanceof ApiRequestError && error.code === 'FOLDER_NOT_FOUND') throw new TeamUnusableError('FOLDER_NOT_FOUND', 'this account is not a member of that folder (or it does not exist)');
  throw error;
}

export async function runTeamFetch(invocation: TeamFetchInvocation, signal: AbortSignal): Promise<number> {
  const { origin, folderId, outputDir } = invocation;
  if (outputDir !== null) await checkOutputDir(outputDir);
  const session = new ApiSession(origin);
  const prompts = new Prompts();
  let account;
  try {
    const password = invocation.password ?? (await prompts.password(`Password of ${invocation.username}: `));
    account = await signIn(session, invocation.username, password, prompts, signal);
  } finally {
    prompts.close();
  }
  const team = await withRetries(() => session.json(teamAnswer, { method: 'GET', path: `/api/folders/${folderId}/team`, signal }), { signal }).catch(notFound);
  const opened = openTeam(folderId, team, { userId: account.user.id, privateKey: account.privateKey });
  warnAboutUnlisted(team, opened.chain);
  const files = await withRetries(() => session.json(fileListResponse, { method: 'GET', path: `/api/folders/${folderId}/files`, signal }), { signal }).catch(notFound);
  const me = opened.chain.head.members.find((member) => member.user_id === account.user.id)!;
  console.log(
    `Team folder ${folderId}: ${opened.chain.head.members.length} members (you: ${me.role}), version ${opened.chain.head.seq}, current key epoch ${opened.chain.head.current_epoch}, ${files.length} file${files.length === 1 ? '' : 's'}`,
  );

  if (outputDir === null) {
    for (const file of files) {
      const readable = file.key_epoch === null ? 'your account key' : opened.epochKeys.has(file.key_epoch) ? `epoch ${file.key_epoch}` : `epoch ${file.key_epoch} (no key)`;
      console.log(`${file.id}\t${printablePath(pathOf(file))}\t${file.file_size}\t${file.upload_time}\t${readable}`);
    }
    return EXIT.ok;
  }

  try {
    await mkdir(outputDir, { recursive: true });
  } catch (error) {
    throw new CliUsageError(`Cannot create ${outputDir} (${errnoCode(error) ?? 'error'}).`);
  }
  const toFetch = files.map((file): FileToFetch => ({
    shown: printablePath(pathOf(file)),
    size: file.file_size,
    path: `/api/folders/download/${file.id}`,
    open: () => {
      const key = fileKeyOf(file, opened, account.privateKey);
      const { directories, name } = safeSegments(file.relative_path, file.original_filename);
      const expected = { source: `file ${file.id} of the folder`, describedBy: 'the folder', directories, name, size: file.file_size, sha256: file.file_hash };
      return { key, iv: strictBase64(file.encryption_iv, 'iv'), expected };
    },
  }));
  return fetchFiles(session, toFetch, { outputDir, force: invocation.force, signal });
}
