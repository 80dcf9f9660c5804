// The release's list of file digests (scripts/build-digests, contract/build-digests.ts): what the
// build writes, that anyone can recompute the build digest with sha256sum, and what readers refuse.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_DIGESTS_FILE, BuildDigestsError, buildDigestText, parseBuildDigests } from '../../contract/build-digests.ts';
import { computeBuildDigests, sha256Hex, writeBuildDigests } from '../../scripts/build-digests/build-digests.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fakeDist(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sealdrop-dist-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const FILES = { 'index.html': '<html></html>', 'sw.js': 'self.x=1', 'assets/index-abc.js': 'console.log(1)', 'icons/icon-192.png': '\x89PNG', 'Zeta.txt': 'z' };

describe('writeBuildDigests', () => {
  it('lists every file of the build with its SHA-256, sorted by path, and leaves out the list itself', async () => {
    const dir = fakeDist(FILES);
    writeFileSync(path.join(dir, BUILD_DIGESTS_FILE), 'an older list');
    const written = await writeBuildDigests(dir, '1.2.3');
    const onDisk = JSON.parse(readFileSync(path.join(dir, BUILD_DIGESTS_FILE), 'utf8'));
    expect(onDisk).toEqual(written);
    expect(written.version).toBe('1.2.3');
    expect(written.files.map((file) => file.path)).toEqual(['Zeta.txt', 'assets/index-abc.js', 'icons/icon-192.png', 'index.html', 'sw.js']);
    for (const file of written.files) expect(file.sha256).toBe(sha256Hex(readFileSync(path.join(dir, file.path))));
  });

  it('the build digest is the SHA-256 of the sorted sha256sum lines, the same as `sha256sum | sha256sum` gives', async () => {
    const dir = fakeDist(FILES);
    const { buildDigest, files } = await writeBuildDigests(dir, '1.2.3');
    expect(buildDigest).toBe(sha256Hex(buildDigestText(files)));
    const lines = files.map((file) => `${file.sha256}  ${file.path}\n`).join('');
    expect(buildDigest).toBe(sha256Hex(lines));
    const shell = execFileSync('sh', ['-c', `find . -type f ! -name ${BUILD_DIGESTS_FILE} | sed 's|^\\./||' | LC_ALL=C sort | xargs sha256sum | sha256sum`], { cwd: dir, encoding: 'utf8' });
    expect(shell.split(' ')[0]).toBe(buildDigest);
  });

  it('one changed byte in any file changes that file\'s digest and the build digest', async () => {
    const before = await computeBuildDigests(fakeDist(FILES), '1.2.3');
    const after = await computeBuildDigests(fakeDist({ ...FILES, 'sw.js': 'self.x=2' }), '1.2.3');
    expect(after.buildDigest).not.toBe(before.buildDigest);
    expect(after.files.filter((file, i) => file.sha256 !== before.files[i]!.sha256).map((file) => file.path)).toEqual(['sw.js']);
  });

  it('fails the build on a file name the readers would refuse', async () => {
    await expect(computeBuildDigests(fakeDist({ ...FILES, 'has space.js': 'x' }), '1.2.3')).rejects.toMatchObject({ code: 'MALFORMED_BUILD_DIGESTS' });
  });
});

describe('parseBuildDigests', () => {
  const good = { format: 1, version: '1.0.0', buildDigest: 'a'.repeat(64), files: [{ path: 'index.html', sha256: 'b'.repeat(64) }] };

  it('accepts a well-formed list', () => {
    expect(parseBuildDigests(good)).toEqual(good);
  });

  it.each([
    ['a path leaving the site root', { files: [{ path: '../etc/passwd', sha256: 'b'.repeat(64) }] }],
    ['an absolute path', { files: [{ path: '/index.html', sha256: 'b'.repeat(64) }] }],
    ['an empty segment', { files: [{ path: 'assets//x.js', sha256: 'b'.repeat(64) }] }],
    ['a backslash', { files: [{ path: 'assets\\x.js', sha256: 'b'.repeat(64) }] }],
    ['an upper-case digest', { files: [{ path: 'index.html', sha256: 'B'.repeat(64) }] }],
    ['a path listed twice', { files: [good.files[0], good.files[0]] }],
    ['no files', { files: [] }],
    ['another format', { format: 2 }],
    ['a short build digest', { buildDigest: 'a'.repeat(63) }],
  ])('refuses %s', (_name, change) => {
    expect(() => parseBuildDigests({ ...good, ...change })).toThrow(BuildDigestsError);
  });
});
