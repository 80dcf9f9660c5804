// `npm run recover`: an export (directory or ZIP) decrypted offline with the key backup file (of
// scheme 2, as the app writes it now, and of the old scheme 1), run as a real process. Every output byte is compared with the originals; damaged files are named,
// skipped, and leave nothing behind, while the rest is still recovered.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RECORD_BYTES } from '../../server/crypto/index.ts';
import {
  backupFileText,
  buildExport,
  type BuiltExport,
  newKeyOwner,
  type KeyOwner,
  type PlainFile,
  sampleFiles,
  writeDirectoryExport,
  writeZipExport,
} from './export-fixtures.ts';
import { expectedTree, linesOf, runRecover, treeDifferences, treeOf } from './run-recover.ts';

const PASSWORD = 'correct horse battery staple';
let owner: KeyOwner;
let work: string;
let backup: string;

beforeAll(async () => {
  owner = newKeyOwner();
  work = await mkdtemp(path.join(tmpdir(), 'sealdrop-recover-'));
  backup = path.join(work, 'private-key-backup-admin-2026-11-22.json');
  await writeFile(backup, backupFileText(owner, PASSWORD));
});
afterAll(() => rm(work, { recursive: true, force: true }));

const writers = {
  directory: (built: BuiltExport, name: string) => writeDirectoryExport(path.join(work, name), built),
  zip: (built: BuiltExport, name: string) => writeZipExport(path.join(work, `${name}.zip`), built),
};

describe.each(['directory', 'zip'] as const)('recover from a %s export', (form) => {
  it('recovers every file byte for byte: nested tree, unicode names, an empty file, multi-record files', async () => {
    const files = sampleFiles();
    const exportPath = await writers[form](await buildExport(owner, files), `whole-${form}`);
    const out = path.join(work, `out-whole-${form}`);

    const result = await runRecover(['--backup', backup, '--password-stdin', exportPath, out], `${PASSWORD}\n`);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await treeDifferences(out, expectedTree(files))).toEqual([]);
    const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
    expect(linesOf(result.stdout).at(-1)).toMatch(new RegExp(`^Recovered 5 of 5 files: .* \\(${total} bytes\\) in [\\d.]+ s, \\d+ MB/s\\.$`));
  });

  it('names each damaged file with its reason, recovers the rest, and leaves nothing of the damaged ones', async () => {
    const good = sampleFiles();
    const threeRecords = () => Buffer.alloc(3 * DEFAULT_RECORD_BYTES + 99, 7);
    const damaged: PlainFile[] = [
      { relativePath: 'damaged/flipped', name: 'flipped.bin', bytes: threeRecords() },
      { relativePath: 'damaged/cut', name: 'cut-inside-a-record.bin', bytes: threeRecords() },
      { relativePath: 'damaged/cut-boundary', name: 'cut-at-a-record.bin', bytes: threeRecords() },
      { relativePath: 'damaged/missing', name: 'missing.bin', bytes: Buffer.from('gone') },
      { relativePath: 'damaged/wrong-key', name: 'other-key-pair.bin', bytes: Buffer.from('for someone else') },
      { relativePath: 'damaged/swapped', name: 'swapped-key.bin', bytes: Buffer.from('key of another file') },
      { relativePath: 'damaged/hash', name: 'hash-differs.bin', bytes: Buffer.from('manifest hash altered') },
      { relativePath: 'damaged/size', name: 'size-differs.bin', bytes: Buffer.from('manifest size altered') },
    ];
    const built = await buildExport(owner, [...good, ...damaged]);
    const entry = (name: string) => built.manifest.files.find((file) => file.name === name)!;
    const blob = (name: string) => built.blobs.get(entry(name).blob)!;

    const flipped = blob('flipped.bin');
    flipped[12 + DEFAULT_RECORD_BYTES + 500] = flipped[12 + DEFAULT_RECORD_BYTES + 500]! ^ 0x01;
    built.blobs.set(entry('cut-inside-a-record.bin').blob, blob('cut-inside-a-record.bin').subarray(0, 12 + DEFAULT_RECORD_BYTES + 1000));
    built.blobs.set(entry('cut-at-a-record.bin').blob, blob('cut-at-a-record.bin').subarray(0, 12 + 2 * (DEFAULT_RECORD_BYTES + 16)));
    built.blobs.delete(entry('missing.bin').blob);
    const other = await buildExport(newKeyOwner(), [{ relativePath: '.', name: 'x', bytes: Buffer.from('for someone else') }]);
    entry('other-key-pair.bin').encrypted_key = other.manifest.files[0]!.encrypted_key;
    entry('swapped-key.bin').encrypted_key = entry('report.pdf').encrypted_key;
    entry('hash-differs.bin').sha256 = '0'.repeat(64);
    entry('size-differs.bin').size += 1;

    const exportPath = await writers[form](built, `damaged-${form}`);
    const out = path.join(work, `out-damaged-${form}`);
    const result = await runRecover(['--backup', backup, '--password-stdin', exportPath, out], `${PASSWORD}\n`);

    expect(result.code).toBe(1);
    expect(await treeDifferences(out, expectedTree(good))).toEqual([]);
    const failures = linesOf(result.stderr);
    const expectations: [string, string][] = [
      ['damaged/flipped/flipped.bin', 'INTEGRITY'],
      ['damaged/cut/cut-inside-a-record.bin', 'BLOB_TRUNCATED'],
      ['damaged/cut-boundary/cut-at-a-record.bin', 'BLOB_TRUNCATED'],
      ['damaged/missing/missing.bin', 'BLOB_MISSING'],
      ['damaged/wrong-key/other-key-pair.bin', 'WRONG_KEY'],
      ['damaged/swapped/swapped-key.bin', 'INTEGRITY'],
      ['damaged/hash/hash-differs.bin', 'HASH_MISMATCH'],
      ['damaged/size/size-differs.bin', 'SIZE_MISMATCH'],
    ];
    expect(failures).toHaveLength(expectations.length);
    for (const [index, [displayPath, code]] of expectations.entries()) {
      expect(failures[index]).toMatch(new RegExp(`^FAILED ${displayPath}: .+ \\[${code}\\]$`));
    }
    expect(failures[1]).toContain(`truncated: ${12 + DEFAULT_RECORD_BYTES + 1000} of`);
    expect(failures[3]).toContain('files/');
    expect(linesOf(result.stdout).at(-1)).toMatch(/^Recovered 5 of 13 files: /);
  });
});

describe('backups of both KDF schemes', () => {
  it('a backup of scheme 1 (made before issue 27, PBKDF2) opens as one of scheme 3 (bound to the username, no name typed) does; a wrong password is exit 3 for either', async () => {
    const files = sampleFiles().slice(0, 2);
    const exportPath = await writeDirectoryExport(path.join(work, 'schemes'), await buildExport(owner, files));
    const scheme2 = JSON.parse(await readFile(backup, 'utf8')) as { kdfSalt: string };
    expect(Buffer.from(scheme2.kdfSalt, 'base64')[0]).toBe(3);
    const oldBackup = path.join(work, 'private-key-backup-scheme1.json');
    await writeFile(oldBackup, backupFileText(owner, PASSWORD, 'admin', 1));
    expect(Buffer.from((JSON.parse(await readFile(oldBackup, 'utf8')) as { kdfSalt: string }).kdfSalt, 'base64')[0]).toBe(1);

    const out = path.join(work, 'out-scheme1');
    const result = await runRecover(['--backup', oldBackup, '--password-stdin', exportPath, out], `${PASSWORD}\n`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await treeDifferences(out, expectedTree(files))).toEqual([]);

    for (const file of [backup, oldBackup]) {
      const wrong = await runRecover(['--backup', file, '--password-stdin', exportPath, path.join(work, 'out-wrong')], 'not the password\n');
      expect(wrong.code, file).toBe(3);
    }
  });
});

describe('existing output files', () => {
  it('are not replaced (each is named) unless --force is given', async () => {
    const files = sampleFiles();
    const exportPath = await writeDirectoryExport(path.join(work, 'again'), await buildExport(owner, files));
    const out = path.join(work, 'out-again');
    expect((await runRecover(['--backup', backup, '--password-stdin', exportPath, out], `${PASSWORD}\n`)).code).toBe(0);
    await writeFile(path.join(out, 'report.pdf'), 'changed since');

    const second = await runRecover(['--backup', backup, '--password-stdin', exportPath, out], `${PASSWORD}\n`);
    expect(second.code).toBe(1);
    const failures = linesOf(second.stderr);
    expect(failures).toHaveLength(files.length);
    for (const line of failures) expect(line).toMatch(/^FAILED .+: already exists in the output directory .*\[OUTPUT_EXISTS\]$/);
    expect((await treeOf(out)).get('report.pdf')).toEqual(Buffer.from('changed since'));

    const forced = await runRecover(['--backup', backup, '--password-stdin', '--force', exportPath, out], `${PASSWORD}\n`);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(await treeDifferences(out, expectedTree(files))).toEqual([]);
  });
});
