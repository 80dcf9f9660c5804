// `npm run upload` against a real server over real HTTP (the harness's Fastify, a real SQLite in
// a temp dir), run as a child process like a user runs it. What the command stores is downloaded
// as the admin and decrypted with the independent node:crypto implementation.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminWithKeys, commandTestBed, createFolder, jsonLines, runCommand, sha256, storedFiles, writeTree } from './cli-fixtures.ts';

const MiB = 1024 * 1024;
const bed = commandTestBed();

describe('npm run upload', { timeout: 180_000 }, () => {
  it('a nested tree with unicode names, an empty file and a large file: stored byte-identical, one JSON line per file', async () => {
    const server = await bed.startServer();
    const admin = await adminWithKeys(server);
    const folder = await createFolder(admin);
    const root = path.join(bed.tempDir('sealdrop-cli-src-'), 'Projekt Ærø');
    const tree: Record<string, Buffer> = {
      'liesmich.txt': Buffer.from('Grüße aus dem Terminal\n'),
      'leer.txt': Buffer.alloc(0),
      'docs/2024/Bericht "Q3" – final.pdf': randomBytes(300_000),
      'docs/日本語/データ.bin': randomBytes(12 * MiB + 17),
    };
    writeTree(root, tree);
    const run = runCommand('upload', [`${server.baseUrl}/upload/${folder.link_token}`, root, '--json', '--state-dir', bed.tempDir('sealdrop-cli-state-'), '--chunk-mib', '4']);
    const result = await run.done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    const files = lines.filter((line) => line.event === 'file');
    expect(files.map((line) => line.path).sort()).toEqual(Object.keys(tree).map((name) => `Projekt Ærø/${name}`).sort());
    expect(files.every((line) => line.status === 'stored' && Number.isInteger(line.id))).toBe(true);
    expect(lines.at(-1)).toMatchObject({ event: 'summary', files: 4, stored: 4, failed: 0 });

    const stored = await storedFiles(server, admin, folder.id);
    expect(stored.map((file) => file.path)).toEqual(Object.keys(tree).map((name) => `Projekt Ærø/${name}`).sort());
    for (const file of stored) {
      const original = tree[file.path.slice('Projekt Ærø/'.length)]!;
      expect(file.content.equals(original), file.path).toBe(true);
      expect(file.file.file_hash).toBe(sha256(original));
    }
  });
});
