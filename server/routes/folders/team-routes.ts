// A folder's team (docs/team-folders.md, "API"), mounted under /api/folders: read the signed member
// list with the caller's envelopes, share a personal folder (its owner), store a new version
// (owner, managers), and a member's own notification choice. A folder the account is not a member
// of answers 404; a member whose role is too weak 403 FOLDER_ROLE_REQUIRED.
import type { FastifyInstance } from 'fastify';
import { isActiveAccount } from '../../accounts/account-standing.ts';
import { ApiError } from '../../errors.ts';
import type { Repositories } from '../../db/repositories/index.ts';
import { recordFolderActivity } from '../../folders/folder-activity.ts';
import { requireFolderRole } from '../../folders/folder-access.ts';
import { checkChange, checkShare, namedMemberIds, type MemberAccount } from '../../folders/team-checks.ts';
import { TeamChangedError, TeamExistsError } from '../../folders/team-errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import {
  CHANGE_TEAM_BODY_LIMIT,
  changeTeamRequest,
  SHARE_TEAM_BODY_LIMIT,
  shareTeamRequest,
  teamAnswer,
  teamFolderParams,
  teamMeRequest,
  teamMeResponse,
  teamWriteResponse,
  type TeamAnswer,
} from '../../../contract/team-folders.ts';

/** The accounts a manifest names, as the checks need them. */
async function memberAccounts(repos: Repositories, manifestText: string): Promise<Map<number, MemberAccount>> {
  const accounts = new Map<number, MemberAccount>();
  for (const id of namedMemberIds(manifestText)) {
    const user = await repos.users.findById(id);
    if (user) accounts.set(id, { id, username: user.username, publicKeySpki: user.publicKeySpki, active: isActiveAccount(user) });
  }
  return accounts;
}

export async function teamRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  routes.get(
    '/:id/team',
    { schema: { params: teamFolderParams, response: { 200: teamAnswer } } },
    async (request): Promise<TeamAnswer> => {
      const { user } = signedIn(request);
      const folder = await requireFolderRole(repos, user.id, request.params.id, 'reader');
      const [manifests, members, epochs, envelopes] = await Promise.all([
        repos.teamFolders.manifests(folder.id),
        repos.teamFolders.members(folder.id),
        repos.teamFolders.epochs(folder.id),
        repos.teamFolders.envelopesOf(folder.id, user.id),
      ]);
      return {
        manifests: manifests.map((version) => ({ manifest: version.manifest, signature: version.signature, signer_public_key_spki: version.signerPublicKeySpki })),
        members: members.map((member) => ({
          user_id: member.userId,
          username: member.username,
          display_name: member.displayName,
          role: member.role,
          public_key_spki: member.publicKeySpki,
          is_disabled: member.isDisabled,
          notify: member.notify,
        })),
        epochs: epochs.map((epoch) => ({ epoch: epoch.epoch, public_key_spki: epoch.publicKeySpki, created_at: new Date(epoch.createdAt).toISOString() })),
        my_envelopes: envelopes,
        current_epoch: epochs.length === 0 ? null : epochs[epochs.length - 1]!.epoch,
      };
    },
  );

  routes.post(
    '/:id/team',
    { bodyLimit: SHARE_TEAM_BODY_LIMIT, schema: { params: teamFolderParams, body: shareTeamRequest, response: { 201: teamWriteResponse } } },
    async (request, reply) => {
      const { user } = signedIn(request);
      const folder = await requireFolderRole(repos, user.id, request.params.id, 'owner');
      if (folder.currentKeyEpoch !== null) throw new TeamExistsError();
      const body = request.body;
      const checked = checkShare({
        folderId: folder.id,
        ownerId: folder.ownerId,
        writer: { id: user.id, publicKeySpki: user.publicKeySpki },
        body,
        accounts: await memberAccounts(repos, body.manifest),
      });
      const outcome = await repos.teamFolders.share({
        folderId: folder.id,
        ownerId: folder.ownerId,
        version: { seq: 1, manifest: body.manifest, signature: body.signature, hash: checked.hash, signerId: user.id, signerPublicKeySpki: user.publicKeySpki! },
        epoch: { epoch: 1, publicKeySpki: body.epoch.public_key_spki },
        envelopes: checked.envelopes,
        members: checked.members,
        rekeyedFiles: body.rekeyed_files.map((file) => ({ fileId: file.file_id, encryptedKey: file.encrypted_key })),
        now: app.now(),
      });
      if (outcome === 'exists') throw new TeamExistsError();
      if (outcome === 'files-changed') throw new TeamChangedError();
      await recordFolderActivity(app, user, { ...folder, currentKeyEpoch: 1 }, 'team.shared', {
        ip: request.ip,
        details: { members: checked.manifest.members.map((member) => ({ username: member.username, role: member.role })), files: body.rekeyed_files.length },
      });
      return reply.code(201).send({ seq: 1, current_epoch: 1 });
    },
  );

  routes.post(
    '/:id/team/versions',
    { bodyLimit: CHANGE_TEAM_BODY_LIMIT, schema: { params: teamFolderParams, body: changeTeamRequest, response: { 201: teamWriteResponse } } },
    async (request, reply) => {
      const { user } = signedIn(request);
      const folder = await requireFolderRole(repos, user.id, request.params.id, 'manager');
      const head = await repos.teamFolders.head(folder.id);
      if (!head) throw new TeamChangedError();
      const body = request.body;
      const checked = checkChange({
        folderId: folder.id,
        head,
        writer: { id: user.id, publicKeySpki: user.publicKeySpki },
        body,
        accounts: await memberAccounts(repos, body.manifest),
      });
      const outcome = await repos.teamFolders.change(
        {
          folderId: folder.id,
          version: { seq: checked.manifest.seq, manifest: body.manifest, signature: body.signature, hash: checked.hash, signerId: user.id, signerPublicKeySpki: user.publicKeySpki! },
          newEpoch: checked.newEpoch,
          envelopes: checked.envelopes,
          members: checked.members,
          now: app.now(),
        },
        folder.ownerId,
      );
      if (outcome === 'conflict') throw new TeamChangedError();
      await recordFolderActivity(app, user, folder, 'team.changed', {
        ip: request.ip,
        details: {
          seq: checked.manifest.seq,
          members: checked.manifest.members.map((member) => ({ username: member.username, role: member.role })),
          new_epoch: checked.newEpoch?.epoch ?? null,
        },
      });
      return reply.code(201).send({ seq: checked.manifest.seq, current_epoch: checked.manifest.current_epoch });
    },
  );

  routes.put(
    '/:id/team/me',
    { schema: { params: teamFolderParams, body: teamMeRequest, response: { 200: teamMeResponse } } },
    async (request) => {
      const { user } = signedIn(request);
      const folder = await requireFolderRole(repos, user.id, request.params.id, 'reader');
      // A personal folder's owner has no member row (its notifications are the folder's own setting):
      // there is no team to set anything in.
      if (!(await repos.teamFolders.setNotify(folder.id, user.id, request.body.notify))) throw new ApiError('NOT_FOUND');
      return { notify: request.body.notify };
    },
  );
}
