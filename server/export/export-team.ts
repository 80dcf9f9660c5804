// A team folder's key material for its export (docs/format.md, "Exports"): the signed versions of
// its member list and every member's envelopes. Callers read it after the file list: epochs only
// ever grow, so every epoch a listed file is sealed to is already in what is read here.
import type { Repositories } from '../db/repositories/index.ts';
import type { ExportTeam } from './manifest.ts';

/** null for a personal folder (its export stays format_version 1). */
export async function loadExportTeam(repos: Pick<Repositories, 'teamFolders'>, folderId: number): Promise<ExportTeam | null> {
  const [manifests, envelopes] = await Promise.all([repos.teamFolders.manifests(folderId), repos.teamFolders.allEnvelopes(folderId)]);
  if (manifests.length === 0) return null;
  return {
    manifests: manifests.map((version) => ({ manifest: version.manifest, signature: version.signature, signer_public_key_spki: version.signerPublicKeySpki })),
    envelopes: envelopes.map((item) => ({ user_id: item.userId, epoch: item.epoch, envelope: item.envelope })),
  };
}
