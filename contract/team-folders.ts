// Team folders (docs/team-folders.md, "API"): the signed member list of a folder, its key epochs
// and the envelopes that carry each epoch's private key to a member. The server checks the shape
// here and the manifest's links and signature in server/crypto/team-manifest.ts; a member's browser
// checks the whole chain again (it never trusts the server's word on who is a member).
import { z } from 'zod';
import { rowId, rowIdParam } from './common.ts';
import { PUBLIC_KEY_MAX_LENGTH } from './keys.ts';

/** The three roles of a team folder; `owner` is the account that created it (one per folder). */
export const TEAM_ROLES = ['owner', 'manager', 'reader'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** The roles a change may give (the owner stays the owner). */
export const ASSIGNABLE_TEAM_ROLES = ['manager', 'reader'] as const;
export type AssignableTeamRole = (typeof ASSIGNABLE_TEAM_ROLES)[number];

/** How strong a role is: a route asking for `manager` admits `manager` and `owner`. */
export const TEAM_ROLE_RANK: Readonly<Record<TeamRole, number>> = { reader: 1, manager: 2, owner: 3 };

/** The manifest's `format` and `version` (docs/team-folders.md, "Manifest (version 1)"). */
export const TEAM_MANIFEST_FORMAT = 'sealdrop-folder-manifest';
export const TEAM_MANIFEST_VERSION = 1;
/** The envelope's first byte. */
export const TEAM_ENVELOPE_VERSION = 1;
/** The signature's domain prefix: signed bytes are UTF-8(prefix) || 0x00 || manifest bytes. */
export const TEAM_MANIFEST_SIGNATURE_PREFIX = 'sealdrop folder manifest v1';
/** The envelope's AAD prefix: UTF-8(prefix + folder_id + ":" + epoch + ":" + memberKeyHash). */
export const TEAM_ENVELOPE_AAD_PREFIX = 'sealdrop folder key v1:';

/** Most members one folder may have (a firm's team, not a mailing list). */
export const MAX_TEAM_MEMBERS = 200;
/** Most epochs one folder may reach (each removal makes one). */
export const MAX_TEAM_EPOCHS = 1000;
/** A manifest of MAX_TEAM_MEMBERS members and many epochs stays well under this (base64 of its bytes). */
export const TEAM_MANIFEST_MAX_LENGTH = 262_144;
/** An RSA-2048 signature is 256 bytes (344 base64 characters); room for larger keys later. */
export const TEAM_SIGNATURE_MAX_LENGTH = 1024;
/** 1 + 256 + 12 + PKCS8 of RSA-2048 (~1218) + 16: about 2 kB of base64; room for larger keys. */
export const TEAM_ENVELOPE_MAX_LENGTH = 8192;
/** An RSA-OAEP-2048 wrapped file key is 344 base64 characters. */
export const REKEYED_FILE_KEY_MAX_LENGTH = 1024;
/** Most envelopes one write carries: every member of every epoch when a member joins a long history. */
export const MAX_TEAM_ENVELOPES = 20_000;
/** Most file keys one share re-seals (a folder's files, sent at once in one transaction). */
export const MAX_REKEYED_FILES = 100_000;

const base64Text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, `${field} must be base64`);

/** A key epoch: 1 for the first, one more for each new one. */
export const keyEpoch = z
  .number({ error: 'Key epoch must be a number' })
  .int('Key epoch must be a whole number')
  .min(1, 'Key epoch must be at least 1')
  .max(MAX_TEAM_EPOCHS, `Key epoch must be at most ${MAX_TEAM_EPOCHS}`);

export const teamRole = z.enum(TEAM_ROLES, { error: 'Role must be owner, manager or reader' });

/** The public half of a new epoch: base64 of its SPKI DER. */
export const epochPublicKeyBody = z.object({
  epoch: keyEpoch,
  public_key_spki: base64Text('Epoch public key', PUBLIC_KEY_MAX_LENGTH),
});
export type EpochPublicKeyBody = z.input<typeof epochPublicKeyBody>;

/** One epoch's private key sealed to one member (docs/team-folders.md, "Envelope (version 1)"). */
export const envelopeBody = z.object({
  user_id: rowId('Member'),
  epoch: keyEpoch,
  envelope: base64Text('Envelope', TEAM_ENVELOPE_MAX_LENGTH),
});
export type EnvelopeBody = z.input<typeof envelopeBody>;

/** A file key of the folder, re-sealed to epoch 1 when the folder is shared. */
export const rekeyedFileBody = z.object({
  file_id: rowId('File'),
  encrypted_key: base64Text('Encrypted key', REKEYED_FILE_KEY_MAX_LENGTH),
});
export type RekeyedFileBody = z.input<typeof rekeyedFileBody>;

const manifestText = base64Text('Manifest', TEAM_MANIFEST_MAX_LENGTH);
const signatureText = base64Text('Signature', TEAM_SIGNATURE_MAX_LENGTH);
const envelopeList = z
  .array(envelopeBody, { error: 'Envelopes must be a list' })
  .max(MAX_TEAM_ENVELOPES, `At most ${MAX_TEAM_ENVELOPES} envelopes per request`);

/** POST /folders/{id}/team: the owner shares a personal folder (version 1, epoch 1). */
export const shareTeamRequest = z.object({
  /** base64 of the manifest's exact UTF-8 bytes. */
  manifest: manifestText,
  /** base64 of the RSA-PSS signature (docs/team-folders.md). */
  signature: signatureText,
  epoch: z.object({ epoch: z.literal(1, { error: 'The first epoch is 1' }), public_key_spki: base64Text('Epoch public key', PUBLIC_KEY_MAX_LENGTH) }),
  envelopes: envelopeList.min(1, 'At least the owner needs an envelope'),
  /** Every file of the folder, its key sealed to epoch 1. */
  rekeyed_files: z
    .array(rekeyedFileBody, { error: 'Re-keyed files must be a list' })
    .max(MAX_REKEYED_FILES, `At most ${MAX_REKEYED_FILES} files per request`),
});
export type ShareTeamRequest = z.input<typeof shareTeamRequest>;

/** POST /folders/{id}/team/versions: a new version after `expected_seq` (add, remove, role). */
export const changeTeamRequest = z.object({
  /** The seq of the version this change follows; another one stored meanwhile is TEAM_CHANGED. */
  expected_seq: z
    .number({ error: 'Expected version must be a number' })
    .int('Expected version must be a whole number')
    .min(1, 'Expected version must be at least 1')
    .max(1_000_000, 'Expected version is out of range'),
  manifest: manifestText,
  signature: signatureText,
  /** Present when the change starts a new epoch (a member removed). */
  new_epoch: epochPublicKeyBody.optional(),
  envelopes: envelopeList,
});
export type ChangeTeamRequest = z.input<typeof changeTeamRequest>;

/** PUT /folders/{id}/team/me: this member's own settings. */
export const teamMeRequest = z.object({
  notify: z.boolean({ error: 'Notify must be true or false' }),
});
export type TeamMeRequest = z.input<typeof teamMeRequest>;

export const teamMeResponse = z.object({ notify: z.boolean() });
export type TeamMeResponse = z.infer<typeof teamMeResponse>;

/** One stored version of the manifest, with what a browser needs to check its signature. */
export const teamManifestEntry = z.object({
  /** base64 of the manifest's exact bytes. */
  manifest: z.string(),
  signature: z.string(),
  /** base64 SPKI of the signer's account key when the version was stored. */
  signer_public_key_spki: z.string(),
});
export type TeamManifestEntry = z.infer<typeof teamManifestEntry>;

/** One member row as the server holds it (derived from the latest version; the browser checks it). */
export const teamMemberResponse = z.object({
  user_id: z.number(),
  username: z.string(),
  display_name: z.string().nullable(),
  role: teamRole,
  /** base64 SPKI of the account's current public key (null: the account has none). */
  public_key_spki: z.string().nullable(),
  is_disabled: z.boolean(),
  /** Whether this member receives the folder's upload notifications. */
  notify: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMemberResponse>;

export const teamEpochResponse = z.object({
  epoch: z.number(),
  public_key_spki: z.string(),
  /** ISO 8601 UTC. */
  created_at: z.string(),
});
export type TeamEpoch = z.infer<typeof teamEpochResponse>;

export const teamEnvelopeResponse = z.object({ epoch: z.number(), envelope: z.string() });
export type TeamEnvelope = z.infer<typeof teamEnvelopeResponse>;

/**
 * GET /folders/{id}/team. A personal folder's owner gets empty lists and `current_epoch` null;
 * a non-member gets 404.
 */
export const teamAnswer = z.object({
  /** Every version, seq 1 first. */
  manifests: z.array(teamManifestEntry),
  members: z.array(teamMemberResponse),
  /** Every epoch, 1 first. */
  epochs: z.array(teamEpochResponse),
  /** The signed-in member's envelopes, one per epoch it holds. */
  my_envelopes: z.array(teamEnvelopeResponse),
  current_epoch: z.number().nullable(),
});
export type TeamAnswer = z.infer<typeof teamAnswer>;

/** The answer of a share or a change: the new head. */
export const teamWriteResponse = z.object({ seq: z.number(), current_epoch: z.number() });
export type TeamWriteResponse = z.infer<typeof teamWriteResponse>;

/** GET /upload/{link_token}/public-key: the key an upload seals file keys to. */
export const uploadPublicKeyResponse = z.object({
  public_key_spki: z.string(),
  /** The folder's current epoch; null: a personal folder (the owner's account key). */
  key_epoch: z.number().nullable(),
});
export type UploadPublicKeyResponse = z.infer<typeof uploadPublicKeyResponse>;

/** The tus metadata key and the multipart batch field naming the epoch an upload sealed to. */
export const KEY_EPOCH_FIELD = 'key_epoch';

/** A key_epoch as an upload sends it (text in tus metadata and multipart fields): digits, or absent. */
export const KEY_EPOCH_TEXT_PATTERN = /^[1-9]\d{0,5}$/;

export const teamFolderParams = z.object({ id: rowIdParam('Folder') });

/** Most bytes a share's body may have: every file key of a large folder re-sealed, and the envelopes. */
export const SHARE_TEAM_BODY_LIMIT = 48 * 1024 * 1024;
/** Most bytes a change's body may have: a joining member's envelopes of a long history. */
export const CHANGE_TEAM_BODY_LIMIT = 16 * 1024 * 1024;
