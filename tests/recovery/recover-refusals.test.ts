// `npm run recover` refusing what it must not do: a wrong password (one line, exit 3), manifest
// paths and blobs that would leave the output directory, a symbolic link planted in it, an export
// format version it does not know, and usage mistakes (exit 2). Also: a backup made before a
// password change still opens with the password it was made under.
import { access, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrapPrivateKey, wrapPrivateKey } from '../../server/crypto/index.ts';
import {
  backupFileText,
  buildExport,
  type BuiltExport,
  newKeyOwner,
  type KeyOwner,
  type PlainFile,
  sampleFiles,
  writeDirectoryExport,
} from './export-fixtures.ts';
import { expectedTree, linesOf, runRecover, treeDifferences, treeOf } from './run-recover.ts';
import { CLI_TEST_TIMEOUT_MS } from '../support/cli-timeouts.ts';

const OLD_PASSWORD = 'the password at backup time';
const NEW_PASSWORD = 'the password after the change';
let owner: KeyOwner;
let work: string;
let backup: string;
let files: PlainFile[];
let built: BuiltExport;
let exportDir: string;

beforeAll(async () => {
  owner = newKeyOwner();
  work = await mkdtemp(path.join(tmpdir(), 'sealdrop-recover-refusals-'));
  backup = path.join(work, 'backup-old.json');
  await writeFile(backup, backupFileText(owner, OLD_PASSWORD));
  files = sampleFiles();
  built = await buildExport(owner, files);
  exportDir = await writeDirectoryExport(path.join(work, 'export'), built);
});
afterAll(() => rm(work, { recursive: true, force: true }));

const exists = (file: string) => access(file).then(() => true, () => false);

describe('passwords', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('a wrong password is one line and exit status 3, and nothing is created', async () => {
    const out = path.join(work, 'out-wrong-password');
    const result = await runRecover(['--backup', backup, '--password-stdin', exportDir, out], 'not the password\n');
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(linesOf(result.stderr)).toEqual(['Wrong password for this backup file (or the backup file is damaged). Nothing was recovered.']);
    expect(await exists(out)).toBe(false);
  });

  it('a backup made before a password change opens with the old password; the re-wrapped key with the new one', async () => {
    // What the profile's password change does: open the stored key with the old password and wrap
    // it again (fresh salt and IV) under the new one. Backups downloaded before keep the old wrapping.
    const stored = JSON.parse(backupFileText(owner, OLD_PASSWORD)) as { encryptedPrivateKey: string; kdfSalt: string };
    const rewrapped = wrapPrivateKey(unwrapPrivateKey(stored, OLD_PASSWORD), NEW_PASSWORD);
    const newBackup = path.join(work, 'backup-new.json');
    await writeFile(newBackup, JSON.stringify({ description: 'after the change', username: 'admin', ...rewrapped, backupDate: new Date().toISOString() }));

    const withOld = await runRecover(['--backup', backup, '--password-stdin', exportDir, path.join(work, 'out-old')], `${OLD_PASSWORD}\n`);
    expect(withOld.stderr).toBe('');
    expect(withOld.code).toBe(0);
    expect(await treeDifferences(path.join(work, 'out-old'), expectedTree(files))).toEqual([]);

    const oldBackupNewPassword = await runRecover(['--backup', backup, '--password-stdin', exportDir, path.join(work, 'out-x')], `${NEW_PASSWORD}\n`);
    expect(oldBackupNewPassword.code).toBe(3);

    const withNew = await runRecover(['--backup', newBackup, '--password-stdin', exportDir, path.join(work, 'out-new')], `${NEW_PASSWORD}\n`);
    expect(withNew.code).toBe(0);
    expect(await treeDifferences(path.join(work, 'out-new'), expectedTree(files))).toEqual([]);
  });
});

describe('manifest paths', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('refuses every path that would leave the output directory and every other blob value, and recovers the rest', async () => {
    const good = built.manifest.files[0]!;
    const unsafe: [Partial<typeof good>, string][] = [
      [{ relative_path: '../escape' }, 'UNSAFE_PATH'],
      [{ relative_path: '/tmp/escape' }, 'UNSAFE_PATH'],
      [{ relative_path: 'a/../../escape' }, 'UNSAFE_PATH'],
      [{ relative_path: 'C:/escape' }, 'UNSAFE_PATH'],
      [{ relative_path: 'a\\..\\..\\escape' }, 'UNSAFE_PATH'],
      [{ relative_path: 'a//b' }, 'UNSAFE_PATH'],
      [{ name: '..' }, 'UNSAFE_PATH'],
      [{ name: '../escape.pdf' }, 'UNSAFE_PATH'],
      [{ name: 'C:escape.pdf' }, 'UNSAFE_PATH'],
      [{ name: 'evil\u0000.pdf' }, 'UNSAFE_PATH'],
      [{ name: '' }, 'UNSAFE_PATH'],
      [{ name: 'other-blob.pdf', blob: `files/${good.id + 1}.sdrp` }, 'UNSAFE_BLOB'],
      [{ name: 'climbing-blob.pdf', blob: `files/../files/${good.id}.sdrp` }, 'UNSAFE_BLOB'],
      [{ name: 'report.pdf' }, 'DUPLICATE_PATH'],
    ];
    const manifest = { ...built.manifest, files: [good, ...unsafe.map(([change]) => ({ ...good, ...change }))] };
    const dir = path.join(work, 'unsafe');
    await writeDirectoryExport(dir, { manifest, blobs: built.blobs });
    const parent = path.join(work, 'unsafe-out-parent');
    const out = path.join(parent, 'out');

    const result = await runRecover(['--backup', backup, '--password-stdin', dir, out], `${OLD_PASSWORD}\n`);

    expect(result.code).toBe(1);
    const failures = linesOf(result.stderr);
    expect(failures).toHaveLength(unsafe.length);
    unsafe.forEach(([, code], index) => expect(failures[index]).toMatch(new RegExp(`^FAILED .*: .+ \\[${code}\\]$`)));
    expect(failures[9]).toContain('\\u0000');
    expect(await readdir(parent)).toEqual(['out']);
    expect([...(await treeOf(out)).keys()]).toEqual(['report.pdf']);
    expect(linesOf(result.stdout).at(-1)).toMatch(/^Recovered 1 of 15 files: /);
  });

  it('refuses a directory that is a symbolic link inside the output directory', async () => {
    const manifest = { ...built.manifest, files: [{ ...built.manifest.files[0]!, relative_path: 'linked/deeper' }] };
    const dir = path.join(work, 'symlinked');
    await writeDirectoryExport(dir, { manifest, blobs: built.blobs });
    const outside = path.join(work, 'outside');
    const out = path.join(work, 'out-symlinked');
    await mkdir(outside);
    await mkdir(out);
    await symlink(outside, path.join(out, 'linked'));

    const result = await runRecover(['--backup', backup, '--password-stdin', dir, out], `${OLD_PASSWORD}\n`);

    expect(result.code).toBe(1);
    expect(linesOf(result.stderr)).toEqual([expect.stringMatching(/^FAILED linked\/deeper\/report\.pdf: .*symbolic link.*\[UNSAFE_PATH\]$/)]);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('unusable exports and usage', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('refuses an export of an unknown format_version as a whole (exit 2, one line, nothing created)', async () => {
    const dir = path.join(work, 'version-3');
    await writeDirectoryExport(dir, { manifest: { ...built.manifest, format_version: 3 }, blobs: built.blobs });
    const out = path.join(work, 'out-version-3');
    const result = await runRecover(['--backup', backup, '--password-stdin', dir, out], `${OLD_PASSWORD}\n`);
    expect(result.code).toBe(2);
    expect(linesOf(result.stderr)).toEqual(['Error: the export has format_version 3; this recover command reads versions 1 and 2 only']);
    expect(await exists(out)).toBe(false);
  });

  it('refuses a manifest that is not a Sealdrop export, a missing export, a backup that is not one, and bad arguments (exit 2)', async () => {
    const out = path.join(work, 'out-unusable');
    const other = path.join(work, 'not-sealdrop');
    await writeDirectoryExport(other, { manifest: { ...built.manifest, format: 'something-else' }, blobs: new Map() });
    const notBackup = path.join(work, 'not-a-backup.json');
    await writeFile(notBackup, '{"hello": "world"}');
    const notZip = path.join(work, 'not-a-zip.zip');
    await writeFile(notZip, 'PK but not really');

    const cases: [string[], RegExp][] = [
      [['--backup', backup, '--password-stdin', other, out], /^Error: manifest\.json is not a Sealdrop export manifest$/],
      [['--backup', backup, '--password-stdin', path.join(work, 'nowhere'), out], /^Error: cannot read the export .*nowhere \(ENOENT\)$/],
      [['--backup', backup, '--password-stdin', notZip, out], /^Error: .*not-a-zip\.zip is not a directory or a readable ZIP file$/],
      [['--backup', notBackup, '--password-stdin', exportDir, out], /^Error: .*not-a-backup\.json is not a key backup file/],
      [['--backup', path.join(work, 'no-backup.json'), '--password-stdin', exportDir, out], /^Error: cannot read the backup file .*\(ENOENT\)$/],
    ];
    for (const [args, line] of cases) {
      const result = await runRecover(args, `${OLD_PASSWORD}\n`);
      expect(result.code, args.join(' ')).toBe(2);
      expect(linesOf(result.stderr)).toEqual([expect.stringMatching(line)]);
    }
    for (const args of [[], [exportDir, out], ['--backup', backup, exportDir], ['--backup', backup, exportDir, out, 'extra'], ['--nope']]) {
      const result = await runRecover(args, '');
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('Usage: npm run recover');
    }
    expect(await exists(out)).toBe(false);
  });
});
