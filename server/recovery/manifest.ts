// manifest.json of an export (docs/format.md "Exports"), validated with zod. The whole export is
// refused (ExportError) when the manifest is not JSON, not a Sealdrop export, or of a format_version
// this reader does not know. A single bad entry (missing field, unsafe path, a blob other than
// files/<id>.sdrp, a path already used by an earlier entry) only refuses that file, so the rest of
// a damaged export can still be recovered. Version 2 (a team folder's export) adds the folder's
// signed member list and envelopes, and each file's key_epoch.
import { z } from 'zod';
import { ExportError, FileRecoveryError } from './errors.ts';
import { safeSegments } from './output-path.ts';

export const SUPPORTED_FORMAT_VERSIONS = [1, 2] as const;
type FormatVersion = (typeof SUPPORTED_FORMAT_VERSIONS)[number];

function isSupportedVersion(version: unknown): version is FormatVersion {
  return (SUPPORTED_FORMAT_VERSIONS as readonly unknown[]).includes(version);
}

const ManifestHead = z.looseObject({ format: z.literal('sealdrop-export'), format_version: z.unknown() });

const ManifestV1 = z.looseObject({
  exported_at: z.string().optional(),
  folder: z.looseObject({ id: z.number().optional(), title: z.string().optional() }).optional(),
  files: z.array(z.unknown()),
});

const positiveInt = z.number().int().positive();

const TeamSection = z.looseObject({
  manifests: z.array(z.looseObject({ manifest: z.string(), signature: z.string(), signer_public_key_spki: z.string() })).min(1),
  envelopes: z.array(z.looseObject({ user_id: positiveInt, epoch: positiveInt, envelope: z.string() })),
});

const ManifestV2 = ManifestV1.extend({
  folder: z.looseObject({ id: positiveInt, title: z.string().optional() }),
  team: TeamSection,
});

export type ExportTeamSection = z.infer<typeof TeamSection>;

const FileEntryV1 = z.looseObject({
  id: z.number().int().nonnegative(),
  blob: z.string(),
  relative_path: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits'),
  encrypted_key: z.string(),
  iv: z.string(),
});

const FileEntryV2 = FileEntryV1.extend({ key_epoch: positiveInt.nullable() });

export interface ExportedFile {
  id: number;
  /** "files/<id>.sdrp", checked. */
  blob: string;
  directories: string[];
  name: string;
  /** Plaintext bytes. */
  size: number;
  sha256: string;
  encryptedKey: string;
  iv: string;
  /** The team folder's epoch `encryptedKey` is sealed to; null: the account key (always, in version 1). */
  keyEpoch: number | null;
}

/** One manifest entry: what to recover, or why it is refused. displayPath names it in reports. */
export type ManifestItem = { displayPath: string } & ({ ok: true; file: ExportedFile } | { ok: false; error: FileRecoveryError });

export interface Manifest {
  folderTitle: string | undefined;
  /** Version 2: the team folder's id (the envelopes and signed list are bound to it) and key material. */
  team: { folderId: number; section: ExportTeamSection } | null;
  items: ManifestItem[];
}

function displayPathOf(entry: unknown, index: number): string {
  const { relative_path: dir, name } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  if (typeof name !== 'string') return `files[${index}]`;
  return typeof dir === 'string' && dir !== '.' ? `${dir}/${name}` : name;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(top)'} ${issue.message}`).join('; ');
}

function readEntry(entry: unknown, version: FormatVersion): ExportedFile {
  const parsed = (version === 1 ? FileEntryV1 : FileEntryV2).safeParse(entry);
  if (!parsed.success) throw new FileRecoveryError('ENTRY_INVALID', `manifest entry is invalid: ${describeIssues(parsed.error)}`);
  const value = parsed.data;
  const { directories, name } = safeSegments(value.relative_path, value.name);
  if (value.blob !== `files/${value.id}.sdrp`) {
    throw new FileRecoveryError('UNSAFE_BLOB', `refused: blob must be "files/${value.id}.sdrp"`);
  }
  return {
    id: value.id,
    blob: value.blob,
    directories,
    name,
    size: value.size,
    sha256: value.sha256,
    encryptedKey: value.encrypted_key,
    iv: value.iv,
    keyEpoch: 'key_epoch' in value && typeof value.key_epoch === 'number' ? value.key_epoch : null,
  };
}

function readTeam(json: unknown): Manifest['team'] {
  const parsed = ManifestV2.safeParse(json);
  if (!parsed.success) throw new ExportError('EXPORT_UNREADABLE', `manifest.json is invalid: ${describeIssues(parsed.error)}`);
  return { folderId: parsed.data.folder.id, section: parsed.data.team };
}

export function parseManifest(bytes: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new ExportError('EXPORT_UNREADABLE', 'manifest.json is not valid JSON', { cause: error });
  }
  const head = ManifestHead.safeParse(json);
  if (!head.success) throw new ExportError('EXPORT_UNREADABLE', 'manifest.json is not a Sealdrop export manifest');
  const version = head.data.format_version;
  if (!isSupportedVersion(version)) {
    throw new ExportError(
      'EXPORT_UNSUPPORTED_VERSION',
      `the export has format_version ${JSON.stringify(version)}; this recover command reads versions ${SUPPORTED_FORMAT_VERSIONS.join(' and ')} only`,
    );
  }
  const body = ManifestV1.safeParse(json);
  if (!body.success) throw new ExportError('EXPORT_UNREADABLE', `manifest.json is invalid: ${describeIssues(body.error)}`);
  const team = version === 2 ? readTeam(json) : null;

  const seen = new Set<string>();
  const items = body.data.files.map((entry, index): ManifestItem => {
    const displayPath = displayPathOf(entry, index);
    try {
      const file = readEntry(entry, version);
      const key = [...file.directories, file.name].join('/');
      if (seen.has(key)) throw new FileRecoveryError('DUPLICATE_PATH', 'refused: an earlier file in the manifest has the same path');
      seen.add(key);
      return { displayPath, ok: true, file };
    } catch (error) {
      if (error instanceof FileRecoveryError) return { displayPath, ok: false, error };
      throw error;
    }
  });
  return { folderTitle: body.data.folder?.title, team, items };
}
